/** Talking to the emulator directly: its control endpoints, and the API out of band. */
import { startEmulator, type Fixtures, type RunningEmulator } from "pulumi-etl/emulator";
import type { Service } from "./engine";
import { callWithKey } from "./http-call";

export { ACCEPT } from "./http-call";

export interface Emulator extends Service {
  emulator: RunningEmulator;
  /** Calls the API as the fixture user, the way another tool or a person would. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  state(): Promise<any>;
  /**
   * The requests since the last reset, but for the provider's proof of its settings (one
   * `GET /accounts/<account>` per provider process, settings-proof.ts): the operations' own.
   */
  requests(): Promise<Array<{ method: string; path: string; status: number }>>;
  /** The calls that could change something (POST, PUT, DELETE) since the last reset. */
  writeRequests(): Promise<Array<{ method: string; path: string; status: number }>>;
  resetRequests(): Promise<void>;
  /** The requests since the last reset as "METHOD /path below {base_url}", in order, but for the settings' proof. */
  calls(): Promise<string[]>;
  /** `calls()` with the settings' proofs among them. */
  allCalls(): Promise<string[]>;
  /** Sets the credits left in every user's hourly window (0: every call answers 429). */
  setCreditsRemaining(remaining: number): Promise<void>;
  /** Renews every user's hourly allowance, as if the hour had passed. */
  renewCredits(): Promise<void>;
  /** Changes the lifecycles' speed (`PUT /_emulator/clock`): a step under way is timed anew from when it began. */
  setSpeed(speed: number): Promise<void>;
  /** Injects faults (`PUT /_emulator/faults`), or turns them off without a setting. */
  faults(setting?: { rate: number; kinds?: string[]; methods?: string[]; holdMs?: number; seed?: number }): Promise<void>;
}

export const TEST_ACCOUNT = "acme-test";

/** The one call by which a provider process proves its settings for the test account (settings-proof.ts). */
export const SETTINGS_PROOF_CALL = `GET /accounts/${TEST_ACCOUNT}`;

/** The user whose API key the test account's stacks use. */
export const TEST_USER_ID = 70;

export interface TestEmulatorOptions {
  /** Records of the test account beyond its user (packages, clusters, connections, ...). */
  account?: Omit<NonNullable<Fixtures["accounts"]>[number], "id" | "uid" | "users">;
  /** Lifecycles this many times faster. */
  speed?: number;
  /** Users of the account besides the test's own (its owner, whose key the stack uses). */
  users?: NonNullable<Fixtures["accounts"]>[number]["users"];
  /** Accounts besides the test account, with their own users. */
  otherAccounts?: NonNullable<Fixtures["accounts"]>;
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export async function startTestEmulator(options: TestEmulatorOptions = {}): Promise<Emulator> {
  const apiKey = `test-key-${process.pid}-${Date.now()}`;
  const emulator = await startEmulator({
    port: 0,
    speed: options.speed,
    fixtures: {
      accounts: [
        {
          ...options.account,
          id: 7,
          uid: TEST_ACCOUNT,
          users: [{ id: TEST_USER_ID, name: "Test User", email: "test@example.com", apiKey }, ...(options.users ?? [])],
        },
        ...(options.otherAccounts ?? []),
      ],
    },
  });
  return { emulator, ...serviceAt({ url: emulator.url, accountId: TEST_ACCOUNT, apiKey }) };
}

/** An emulator already running at `service.url` (started by a test, or by a user's `etl emulator`), to talk to. */
export function serviceAt(service: Service): Omit<Emulator, "emulator"> {
  const { url, accountId, apiKey } = service;
  const proof = `GET /accounts/${accountId}`;
  const control = async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${url}/_emulator/${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    });
    if (response.status >= 400) throw new Error(`${method} /_emulator/${path} answered ${response.status}: ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  };
  const allCalls = async () =>
    ((await control("GET", "requests")) as Array<{ method: string; path: string }>).map((r) => `${r.method} ${r.path.replace(`/${accountId}/api`, "")}`);
  return {
    url,
    accountId,
    apiKey,
    api: (method, path, body) => callWithKey(`${url}/${accountId}/api${path}`, apiKey, method, body),
    state: () => control("GET", "state"),
    requests: async () =>
      ((await control("GET", "requests")) as Array<{ method: string; path: string; status: number }>).filter((r) => `${r.method} ${r.path}` !== proof),
    writeRequests: async () =>
      ((await control("GET", "requests")) as Array<{ method: string; path: string; status: number }>).filter((r) => WRITE_METHODS.has(r.method)),
    resetRequests: async () => void (await control("DELETE", "requests")),
    setCreditsRemaining: async (remaining) => void (await control("PUT", "credits", { remaining })),
    renewCredits: async () => void (await control("DELETE", "credits")),
    setSpeed: async (speed) => void (await control("PUT", "clock", { speed })),
    faults: async (setting) => void (await (setting === undefined ? control("DELETE", "faults") : control("PUT", "faults", setting))),
    calls: async () => (await allCalls()).filter((call) => call !== proof),
    allCalls,
  };
}

/** Asks a running emulator's control interface (`/_emulator/<what>`), as the examples' tests do. */
export async function control(emulator: RunningEmulator, what: string, method = "GET"): Promise<any> {
  const response = await fetch(`${emulator.url}/_emulator/${what}`, { method });
  return response.json();
}
