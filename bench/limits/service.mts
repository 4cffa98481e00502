/**
 * The emulator the benchmark measures against: an account with the records the programs
 * build on, an allowance no run can exhaust (the table counts calls; it does not test the limit),
 * and the request log read through the control endpoints.
 */
import * as emulatorModule from "pulumi-etl/emulator";

export const ACCOUNT = "bench";
const API_KEY = "bench-api-key";

/**
 * Records the programs refer to by id. The scaling runs build each kind from its reference
 * example, which names records of one account (connections 301, 302 and 306, package 101,
 * cluster 201): this account holds them.
 */
export const RECORDS = {
  /** 100 nodes: the scaling runs' jobs run side by side. */
  poolClusterId: 201,
  /** One node: a job-wait run has the cluster to itself. */
  singleClusterId: 22,
  scalingPackageId: 101,
  /** Package ids by running time in seconds. */
  packageBySeconds: { 5: 11, 60: 12, 600: 13 } as Record<number, number>,
} as const;

const EXAMPLE_CONNECTIONS = [
  { id: 301, name: "warehouse", type: "postgres", attributes: { host: "db.example.com", database: "analytics", username: "etl", password: "bench-password" } },
  {
    id: 302,
    name: "redshift",
    type: "redshift",
    attributes: { host: "rs.example.com", database: "analytics", username: "etl", password: "bench-password", region: "us-east-1" },
  },
  { id: 306, name: "crm", type: "salesforce", crmObjects: [{ name: "Contact" }] },
];

export interface ApiCall {
  method: string;
  path: string;
  status: number;
}

/**
 * The provider's proof of its settings: one read of its account per provider process, whatever
 * the number of resources (provider/settings-proof.ts). Not an Account's own read: the
 * benchmark's Accounts have slugs of their own.
 */
export function isSettingsProof(call: ApiCall): boolean {
  return call.method === "GET" && call.path === `/accounts/${ACCOUNT}`;
}

export interface BenchService {
  url: string;
  /** Stack configuration that points a program at this service. */
  stackConfig: Record<string, { value: string; secret?: boolean }>;
  calls(): Promise<ApiCall[]>;
  resetCalls(): Promise<void>;
  close(): Promise<void>;
}

function packageFixture(id: number, seconds: number) {
  return { id, name: `bench-${seconds}s`, run: { seconds, outputs: [{ name: "rows", records: 1000 }] } };
}

/**
 * Packages the account holds besides the stacks' and the records above, made before them
 * (another stack's, a history): ids from 1001 on, so a listing oldest first shows them first.
 */
const olderPackages = (count: number) => Array.from({ length: count }, (_, i) => ({ id: 1001 + i, name: `older ${i}` }));

export async function startBenchService(speed: number, options: { olderPackages?: number } = {}): Promise<BenchService> {
  const emulator = await emulatorModule.startEmulator({
    port: 0,
    speed,
    creditsPerHour: 1_000_000_000,
    fixtures: {
      accounts: [
        {
          id: 1,
          uid: ACCOUNT,
          users: [{ id: 1, name: "Bench", email: "bench@example.com", apiKey: API_KEY }],
          packages: [
            packageFixture(RECORDS.scalingPackageId, 5),
            ...Object.entries(RECORDS.packageBySeconds).map(([seconds, id]) => packageFixture(id, Number(seconds))),
            ...olderPackages(options.olderPackages ?? 0),
          ],
          clusters: [
            { id: RECORDS.poolClusterId, name: "bench-pool", nodes: 100 },
            { id: RECORDS.singleClusterId, name: "bench-single", nodes: 1 },
          ],
          connections: EXAMPLE_CONNECTIONS,
        },
      ],
    },
  });
  const control = async (method: string): Promise<unknown> => {
    const response = await fetch(`${emulator.url}/_emulator/requests`, { method });
    return response.status === 204 ? undefined : response.json();
  };
  const apiPrefix = `/${ACCOUNT}/api`;
  return {
    url: emulator.url,
    stackConfig: {
      "etl:apiUrl": { value: emulator.url },
      "etl:accountId": { value: ACCOUNT },
      "etl:apiKey": { value: API_KEY, secret: true },
    },
    // Every call of the API counts, those at the host's root too (accounts, the settings' proof).
    calls: async () =>
      ((await control("GET")) as ApiCall[]).map((call) => ({
        method: call.method,
        path: call.path.startsWith(apiPrefix) ? call.path.slice(apiPrefix.length) : call.path,
        status: call.status,
      })),
    resetCalls: async () => void (await control("DELETE")),
    close: () => emulator.close(),
  };
}

const ACCEPT = "application/vnd.service+json; version=2";

/** Reads a record through the API, as any other tool would (after the calls were counted). */
export async function readRecord(service: BenchService, recordPath: string): Promise<any> {
  const response = await fetch(`${service.url}/${ACCOUNT}/api${recordPath}`, {
    headers: { accept: ACCEPT, authorization: `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}` },
  });
  if (!response.ok) throw new Error(`GET ${recordPath} answered ${response.status}`);
  return response.json();
}
