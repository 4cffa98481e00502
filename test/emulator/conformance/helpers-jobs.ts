/**
 * What the job conformance files share: an account with clusters and packages that complete,
 * fail and never end, a job's shape, and a job made through the API.
 */
import { expect } from "vitest";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../../emulator";
import { JOB_FIELDS, JOB_OUTPUT_FIELDS, JOB_STATUSES, jobRecord, type JobRecord } from "../../../provider/api/jobs";
import { createHttpRequest, type RequestFn } from "../../../provider/client/http";
import { ACCOUNT, call, DANA_KEY, readJson, testFixtures, unbilledAccount } from "../helpers";
import { useRunningService, type RunningService } from "./helpers-running";

export function jobFixtures(): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [
      {
        ...acme!,
        clusters: [
          { id: 11, name: "main", nodes: 100 },
          { id: 12, name: "paging", nodes: 1 },
          { id: 13, name: "old", status: "terminated" },
        ],
        packages: [
          {
            id: 101,
            name: "orders-rollup",
            variables: { region: "all", run_date: "$yesterday" },
            run: {
              seconds: 1,
              outputs: [
                { name: "orders", records: 100, component: { name: "warehouse_out", type: "database_destination", fields: ["day", "orders"] } },
                { name: "rejects", records: 5 },
              ],
            },
          },
          { id: 102, name: "legacy-export", status: "archived" },
          { id: 103, name: "crm-sync", run: { seconds: 1, outcome: "failed", error: "token expired" } },
          { id: 104, name: "endless", run: { seconds: 1_000_000, outputs: [{ name: "stream", records: 1_000_000 }] } },
        ],
      },
      { ...globex!, clusters: [{ id: 91, name: "globex" }], packages: [{ id: 901, name: "globex-secret" }] },
      unbilledAccount(),
    ],
  };
}

/** At real speed a new job stays idle for a simulated second, long enough to look at it; `speed` makes jobs finish. */
export async function startJobsEmulator(speed?: number): Promise<{ emulator: RunningEmulator; dana: RequestFn }> {
  const emulator = await startEmulator({ port: 0, fixtures: jobFixtures(), speed, creditsPerHour: 100_000 });
  const dana = createHttpRequest({ apiUrl: emulator.url, accountId: ACCOUNT, apiKey: DANA_KEY, vendor: "service" });
  return { emulator, dana };
}

export function expectJob(body: unknown, base: string): JobRecord {
  const job = jobRecord.parse(body);
  expect(Object.keys(body as object).sort()).toEqual([...JOB_FIELDS].sort());
  for (const output of (body as { outputs: object[] }).outputs) {
    expect(Object.keys(output).sort()).toEqual([...JOB_OUTPUT_FIELDS].sort());
  }
  expect(JOB_STATUSES).toContain(job.status);
  expect(job.outputs_count).toBe(job.outputs.length);
  expect(job.url).toBe(`${base}/${ACCOUNT}/api/jobs/${job.id}`);
  expect(job.html_url).toBe(`${base}/${ACCOUNT}/jobs/${job.id}`);
  return job;
}

/** The jobs' emulator at real speed for the file's tests, started before them and closed after. */
export function useJobsService(): RunningService {
  return useRunningService(() => startJobsEmulator(), "all");
}

export function postJob(emulator: RunningEmulator, body: unknown, options: { key?: string; account?: string } = {}): Promise<Response> {
  return call(emulator, "/jobs", { method: "POST", body, ...options });
}

export async function createJob(emulator: RunningEmulator, body: object): Promise<JobRecord> {
  const response = await postJob(emulator, body);
  expect(response.status).toBe(201);
  return expectJob(await readJson(response), emulator.url);
}
