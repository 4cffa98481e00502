import { describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator";
import { ACCOUNT, call, closedAfterEach, expectError, readJson, UNBILLED_ACCOUNT, UNBILLED_KEY, unbilledAccount, until, type ApiRecord } from "../helpers";
import { after, jobsOf, MINUTE_MS, scheduleBody, scheduleFixtures, scheduleServices, soon, SPEED } from "./helpers";

/** Schedules firing on the service's clock at their times, and not firing when they must not. */

const start = scheduleServices();
const track = closedAfterEach();

describe("an enabled schedule", () => {
  it("fires at start_at and every interval after it, each run a job started by the schedule", async () => {
    const api = await start();
    const startAt = soon();
    const created = await api.create(scheduleBody({ name: "every minute", status: "enabled", start_at: startAt, interval_unit: "minutes" }));
    expect(created).toMatchObject({ next_run_at: startAt, execution_count: 0, last_run_at: null });

    await until(
      () => api.read(`/schedules/${created.id}`),
      (s) => s.execution_count >= 3,
    );
    const stopped = await api.send("PUT", `/schedules/${created.id}`, { status: "disabled" });
    const runs = stopped.execution_count as number;
    const jobs = await jobsOf(api, created.id);
    expect(jobs.map((job) => job.created_at)).toEqual([...Array(runs).keys()].map((k) => after(startAt, k * MINUTE_MS)));
    expect(stopped.last_run_at).toBe(after(startAt, (runs - 1) * MINUTE_MS));
    expect(stopped.next_run_at).toBeNull();
    for (const job of jobs) {
      expect(job).toMatchObject({ package_id: 101, cluster_id: 11, attempts: 0, master_auto_retry_attempts: null });
      expect(job.creator).toEqual({
        type: "Schedule",
        id: created.id,
        display_name: "every minute",
        url: `${api.emulator.url}/${ACCOUNT}/api/schedules/${created.id}`,
        html_url: `${api.emulator.url}/${ACCOUNT}/schedules/${created.id}`,
      });
    }
  });

  it("shows the next run time while enabled, one interval after the last run", async () => {
    const api = await start();
    const startAt = soon();
    const created = await api.create(scheduleBody({ status: "enabled", start_at: startAt, interval_unit: "minutes", interval_amount: 2 }));
    const seen = await until(
      () => api.read(`/schedules/${created.id}`),
      (s) => s.execution_count >= 1,
    );
    const runs = seen.execution_count as number;
    expect(seen.last_run_at).toBe(after(startAt, (runs - 1) * 2 * MINUTE_MS));
    expect(seen.next_run_at).toBe(after(startAt, runs * 2 * MINUTE_MS));
    const done = await until(
      () => api.read(`/schedules/${created.id}`),
      (s) => s.last_run_status === "completed",
    );
    expect(done.last_run_status).toBe("completed");
  });

  it("skips run times while the previous run goes when overlap is off, and not when it is on", async () => {
    const api = await start({ clusters: [{ id: 11, name: "main", nodes: 10 }] });
    const startAt = soon();
    // Package 104 runs 150 simulated seconds: two and a half intervals, plus 3 s to start.
    const body = (overlap: boolean) => scheduleBody({ status: "enabled", start_at: startAt, interval_unit: "minutes", overlap }, [{ package_id: 104 }]);
    const strict = await api.create(body(false));
    const relaxed = await api.create(body(true));
    const seen = await until(
      () => api.read(`/schedules/${strict.id}`),
      (s) => s.execution_count >= 2,
    );
    await api.send("PUT", `/schedules/${strict.id}`, { status: "disabled" });
    await api.send("PUT", `/schedules/${relaxed.id}`, { status: "disabled" });
    expect(seen.last_run_at).toBe(after(startAt, 3 * MINUTE_MS));
    expect((await jobsOf(api, strict.id)).slice(0, 2).map((job) => job.created_at)).toEqual([startAt, after(startAt, 3 * MINUTE_MS)]);
    const relaxedTimes = (await jobsOf(api, relaxed.id)).slice(0, 4).map((job) => job.created_at);
    expect(relaxedTimes).toEqual([0, 1, 2, 3].map((k) => after(startAt, k * MINUTE_MS)));
  });

  it("locks start_at after a timed run", async () => {
    const api = await start();
    const created = await api.create(scheduleBody({ status: "enabled", start_at: soon(50), interval_unit: "weeks" }));
    await until(
      () => api.read(`/schedules/${created.id}`),
      (s) => s.execution_count === 1,
    );
    const refused = await call(api.emulator, `/schedules/${created.id}`, { method: "PUT", body: { start_at: soon(10_000) } });
    await expectError(refused, 422, "start_at cannot be changed once the schedule has run (execution_count is 1)");
  });
});

/**
 * Resolves once `minutes` of the service's minutes have passed on its clock, as a witness sees
 * them: a schedule of its own, enabled, firing every minute from now, has fired `minutes + 1`
 * times (its first run is at once). What must not happen in that time had as long to happen.
 */
async function minutesPassed(api: Awaited<ReturnType<typeof start>>, minutes: number): Promise<void> {
  const witness = await api.create(scheduleBody({ name: "witness", status: "enabled", start_at: soon(0), interval_unit: "minutes" }));
  await until(
    () => api.read(`/schedules/${witness.id}`),
    (s) => s.execution_count >= minutes + 1,
  );
}

describe("a schedule that must not fire", () => {
  it("never fires while disabled, the default status", async () => {
    const api = await start();
    const created = await api.create(scheduleBody({ start_at: soon(0), interval_unit: "minutes" }));
    await minutesPassed(api, 4);
    const later = await api.read(`/schedules/${created.id}`);
    expect(later).toMatchObject({ status: "disabled", execution_count: 0, next_run_at: null, last_run_at: null });
    expect(await jobsOf(api, created.id)).toEqual([]);
  });

  it("stops firing once disabled or deleted", async () => {
    const api = await start();
    const body = scheduleBody({ status: "enabled", start_at: soon(0), interval_unit: "minutes" });
    const [disabled, deleted] = [await api.create(body), await api.create(body)];
    await until(
      () => api.read(`/schedules/${deleted.id}`),
      (s) => s.execution_count >= 1,
    );
    const count = (await api.send("PUT", `/schedules/${disabled.id}`, { status: "disabled" })).execution_count;
    const jobsWhenDeleted = (await jobsOf(api, deleted.id)).length;
    await api.send("DELETE", `/schedules/${deleted.id}`);
    await minutesPassed(api, 3);
    expect((await api.read(`/schedules/${disabled.id}`)).execution_count).toBe(count);
    expect(await jobsOf(api, disabled.id)).toHaveLength(count);
    expect(await jobsOf(api, deleted.id)).toHaveLength(jobsWhenDeleted);
  });
});

describe("an account without billing information", () => {
  it("runs no job: a timed run counts and fails at once, and run now answers 402", async () => {
    const unbilled = {
      ...unbilledAccount(),
      schedules: [{ id: 70, status: "enabled" as const, intervalUnit: "minutes" as const, task: { packages: [{ packageId: 801 }] } }],
    };
    const fixtures = scheduleFixtures();
    const emulator = track(await startEmulator({ port: 0, speed: SPEED, fixtures: { accounts: [...fixtures.accounts, unbilled] } }));
    const asUnbilled = { key: UNBILLED_KEY, account: UNBILLED_ACCOUNT };
    const read = async (): Promise<ApiRecord> => readJson(await call(emulator, "/schedules/70", asUnbilled));
    const ran = await until(read, (s) => s.execution_count >= 1);
    expect(ran.last_run_status).toBe("failed");
    expect(await readJson(await call(emulator, "/jobs", asUnbilled))).toEqual([]);
    await expectError(await call(emulator, "/schedules/70/run", { ...asUnbilled, method: "POST" }), 402, /^Billing information required/);
  });
});
