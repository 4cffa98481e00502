import { startEmulator, type StartEmulatorOptions } from "../../emulator";
import { closedAfterEach } from "./helpers";
import { scheduleCalls, scheduleFixtures, until, type ApiRecord } from "./schedule-support";

/**
 * What the tests of schedules firing on the service's clock share. At SPEED a simulated minute
 * is 100 ms, so a schedule of one minute fires ten times a second; run times are stored to the
 * millisecond and applied at their own time, so each can be checked exactly however late the
 * test looks.
 */

export const SPEED = 600;
export const MINUTE_MS = 60_000 / SPEED;

/** Starts a fresh emulator for each test, so runs never compete for another test's clusters. */
export function scheduleServices() {
  const track = closedAfterEach();
  return async (extra: Parameters<typeof scheduleFixtures>[0] = {}, options: StartEmulatorOptions = {}) => {
    const clusters = extra.clusters ?? [{ id: 11, name: "main", nodes: 2 }];
    const emulator = track(
      await startEmulator({ port: 0, speed: SPEED, creditsPerHour: 1_000_000, fixtures: scheduleFixtures({ ...extra, clusters }), ...options }),
    );
    return { emulator, ...scheduleCalls(emulator) };
  };
}

export type Started = Awaited<ReturnType<ReturnType<typeof scheduleServices>>>;

/** A start time a little ahead, on a whole millisecond, as the service stores it. */
export function soon(ms = 200): string {
  return new Date(Date.now() + ms).toISOString();
}

export const after = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

export async function jobsOf(api: Started, scheduleId: number): Promise<ApiRecord[]> {
  const jobs = (await api.read("/jobs?limit=100&direction=asc")) as ApiRecord[];
  return jobs.filter((job) => job.creator.type === "Schedule" && job.creator.id === scheduleId);
}

export async function runEnded(api: Started, id: number): Promise<ApiRecord> {
  return until(
    () => api.read(`/schedules/${id}`),
    (s) => s.last_run_status !== null && s.last_run_status !== "running",
  );
}
