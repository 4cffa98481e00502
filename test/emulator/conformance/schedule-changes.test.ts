import { describe, expect, it } from "vitest";
import { ACCOUNT, call, clockPast, control, expectError, LEE_KEY, OTHER_ACCOUNT, OTHER_KEY, readJson, type ApiRecord } from "../helpers";
import { FUTURE, scheduleBody, scheduleSuite } from "../schedules/helpers";

/**
 * Schedules (facts, "Schedules"), continued: update, delete, clone, run now, watchers, and the
 * rules the schedules share with the other areas. At real speed nothing here fires unless asked
 * to: the schedules are disabled or start in the future.
 */

const suite = scheduleSuite();
const { expectSchedule, post } = suite;

describe("PUT /schedules/{id}", () => {
  it("changes only the fields given and answers 200 with the schedule", async () => {
    const created = await suite.api.create(
      scheduleBody({ description: "before", task: { nodes: 3, packages: [{ package_id: 101, variables: { a: "'1'" } }] } }),
    );
    const updated = expectSchedule(await suite.api.send("PUT", `/schedules/${created.id}`, { description: "after", task: { time_to_idle: 120 } }));
    expect(updated).toMatchObject({
      name: "nightly",
      description: "after",
      task: { nodes: 3, time_to_idle: 120, packages: [{ package_id: "101", variables: { a: "'1'" } }] },
    });
    expect(updated.updated_at >= created.updated_at).toBe(true);
    const replaced = await suite.api.send("PUT", `/schedules/${created.id}`, { task: { packages: [{ package_id: "102" }, { package_id: 101 }] } });
    expect(replaced.task.packages).toEqual([
      { package_id: "102", variables: {} },
      { package_id: "101", variables: {} },
    ]);
  });

  it("leaves updated_at alone when nothing changes", async () => {
    const created = await suite.api.create(scheduleBody());
    await clockPast(created.updated_at);
    expect((await suite.api.send("PUT", `/schedules/${created.id}`, { name: "nightly" })).updated_at).toBe(created.updated_at);
  });

  it("sets next_run_at when enabled, and clears it when disabled", async () => {
    const created = await suite.api.create(scheduleBody({ start_at: FUTURE }));
    expect(created.next_run_at).toBeNull();
    expect((await suite.api.send("PUT", `/schedules/${created.id}`, { status: "enabled" })).next_run_at).toBe(FUTURE);
    expect((await suite.api.send("PUT", `/schedules/${created.id}`, { start_at: "2098-01-01T00:00:00Z" })).next_run_at).toBe("2098-01-01T00:00:00.000Z");
    expect((await suite.api.send("PUT", `/schedules/${created.id}`, { status: "disabled" })).next_run_at).toBeNull();
  });

  it("refuses a new start_at once the schedule has run, and takes the same one again", async () => {
    const created = await suite.api.create(scheduleBody({ start_at: FUTURE }));
    expect((await suite.api.send("PUT", `/schedules/${created.id}`, { start_at: "2098-06-01T00:00:00Z" })).start_at).toBe("2098-06-01T00:00:00.000Z");
    expect((await suite.api.send("POST", `/schedules/${created.id}/run`)).execution_count).toBe(1);
    const refused = await call(suite.emulator, `/schedules/${created.id}`, { method: "PUT", body: { start_at: FUTURE } });
    await expectError(refused, 422, "start_at cannot be changed once the schedule has run (execution_count is 1)");
    expect((await suite.api.send("PUT", `/schedules/${created.id}`, { start_at: "2098-06-01T02:00:00+02:00", name: "kept" })).name).toBe("kept");
  });

  it.each<[unknown, RegExp]>([
    [{ task: { packages: [] } }, /^task\.packages must list at least one package$/],
    [{ task: { packages: [{ package_id: 103 }] } }, /^task\.packages\[0\]\.package_id 103 names a package that is archived$/],
    [
      { interval_amount: 0, reuse_cluster_strategy: "all" },
      /^interval_amount must be an integer of at least 1; reuse_cluster_strategy must be one of any, self, none$/,
    ],
    [{ name: null }, /^name must be a string$/],
  ])("answers 422 to %j", async (body, message) => {
    const created = await suite.api.create(scheduleBody());
    await expectError(await call(suite.emulator, `/schedules/${created.id}`, { method: "PUT", body }), 422, message);
    expect(await suite.api.read(`/schedules/${created.id}`)).toEqual(created);
  });

  it("answers 404 for an unknown schedule before looking at the body", async () => {
    await expectError(await call(suite.emulator, "/schedules/999999", { method: "PUT", body: { colour: 1 } }), 404, "Item not found.");
  });
});

describe("DELETE, clone and run", () => {
  it("deletes for good, answering 200 with the schedule as it was", async () => {
    const created = await suite.api.create(scheduleBody());
    const deleted = expectSchedule(await suite.api.send("DELETE", `/schedules/${created.id}`));
    expect(deleted).toEqual(created);
    await expectError(await call(suite.emulator, `/schedules/${created.id}`), 404, "Item not found.");
    await expectError(await call(suite.emulator, `/schedules/${created.id}`, { method: "DELETE" }), 404, "Item not found.");
  });

  it("clones with 201: the same settings, `Copy of` the name, disabled, the caller's, never run", async () => {
    const original = await suite.api.create(
      scheduleBody({ status: "enabled", start_at: FUTURE, overlap: false, interval_unit: "days" }, [{ package_id: 101, variables: { v: "'x'" } }]),
    );
    await suite.api.send("POST", `/schedules/${original.id}/run`);
    const response = await call(suite.emulator, `/schedules/${original.id}/clone`, { method: "POST", key: LEE_KEY });
    expect(response.status).toBe(201);
    const copy = expectSchedule(await readJson(response));
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({
      name: "Copy of nightly",
      status: "disabled",
      owner_id: 2,
      execution_count: 0,
      last_run_at: null,
      next_run_at: null,
      overlap: false,
      interval_unit: "days",
      start_at: FUTURE,
      task: original.task,
    });
  });

  it("cuts a copy's name to 255 characters", async () => {
    const original = await suite.api.create(scheduleBody({ name: "😀".repeat(255) }));
    const copy = await readJson(await call(suite.emulator, `/schedules/${original.id}/clone`, { method: "POST" }));
    expect([...copy.name].length).toBe(255);
    expect(copy.name.startsWith("Copy of 😀")).toBe(true);
  });

  it("runs now with 200, even disabled: one job per package, started by the schedule", async () => {
    const schedule = await suite.api.create(scheduleBody({ name: "run-now" }, [{ package_id: 101, variables: { day: "'mon'" } }, { package_id: 104 }]));
    const ran = expectSchedule(await suite.api.send("POST", `/schedules/${schedule.id}/run`));
    expect(ran).toMatchObject({ status: "disabled", execution_count: 1, last_run_status: "running", next_run_at: null });
    expect(ran.last_run_at).not.toBeNull();
    const jobs = ((await suite.api.read("/jobs?limit=100")) as ApiRecord[]).filter((job) => job.creator.type === "Schedule" && job.creator.id === schedule.id);
    expect(jobs.map((job) => job.package_id).sort()).toEqual([101, 104]);
    for (const job of jobs) {
      expect(job.creator).toEqual({
        type: "Schedule",
        id: schedule.id,
        display_name: "run-now",
        url: `${suite.emulator.url}/${ACCOUNT}/api/schedules/${schedule.id}`,
        html_url: `${suite.emulator.url}/${ACCOUNT}/schedules/${schedule.id}`,
      });
      expect(job).toMatchObject({ attempts: 0, master_auto_retry_attempts: null, owner_id: 1 });
    }
    expect(jobs.find((job) => job.package_id === 101)!.variables).toEqual({ day: "'mon'" });
  });

  it.each([
    ["POST", "/clone"],
    ["POST", "/run"],
    ["GET", ""],
    ["DELETE", ""],
    ["GET", "/watchers"],
  ])("answers 404 to %s of an unknown schedule%s", async (method, suffix) => {
    await expectError(await call(suite.emulator, `/schedules/999999${suffix}`, { method }), 404, "Item not found.");
  });

  it("answers 405 naming the allowed methods", async () => {
    const response = await call(suite.emulator, "/schedules/1/run", { method: "GET" });
    await expectError(response, 405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("watchers", () => {
  it("adds the caller with 200, lists watchers, and stops with 204", async () => {
    const schedule = await suite.api.create(scheduleBody());
    const path = `/schedules/${schedule.id}/watchers`;
    const watched = await readJson(await call(suite.emulator, path, { method: "POST", key: LEE_KEY }));
    expect(watched).toEqual({ created_at: expect.any(String), schedule_url: schedule.url });
    const again = await readJson(await call(suite.emulator, path, { method: "POST", key: LEE_KEY }));
    expect(again.created_at).toBe(watched.created_at);
    expect(await suite.api.read(path)).toEqual([
      { id: 1, display_name: "Dana Platform" },
      { id: 2, display_name: "Lee Analyst" },
    ]);
    const stopped = await call(suite.emulator, path, { method: "DELETE" });
    expect(stopped.status).toBe(204);
    expect(await stopped.text()).toBe("");
    expect((await call(suite.emulator, path, { method: "DELETE" })).status).toBe(204);
    expect(await suite.api.read(path)).toEqual([{ id: 2, display_name: "Lee Analyst" }]);
  });

  it("tells watchers through their notifications when the schedule is enabled or disabled", async () => {
    const schedule = await suite.api.create(scheduleBody({ name: "watched", start_at: FUTURE }));
    await call(suite.emulator, `/schedules/${schedule.id}/watchers`, { method: "POST", key: LEE_KEY });
    await suite.api.send("PUT", `/schedules/${schedule.id}`, { status: "enabled" });
    await suite.api.send("PUT", `/schedules/${schedule.id}`, { status: "disabled" });
    const titles = ((await suite.api.read("/notifications?limit=100", LEE_KEY)) as ApiRecord[]).map((n) => n.title);
    expect(titles.slice(0, 2)).toEqual(["Schedule 'watched' disabled", "Schedule 'watched' enabled"]);
  });
});

describe("what every area shares", () => {
  const asOther = { key: OTHER_KEY, account: OTHER_ACCOUNT };

  it("keeps each account's schedules to itself", async () => {
    const own = await suite.api.create(scheduleBody({ name: "isolated-own" }));
    const listed = (await readJson(await call(suite.emulator, "/schedules?limit=100", asOther))) as ApiRecord[];
    expect(listed.map((s) => s.id)).not.toContain(own.id);
    expect(await readJson(await call(suite.emulator, "/schedules/search?q=isolated", asOther))).toEqual([]);
    for (const [method, suffix, body] of [
      ["GET", ""],
      ["PUT", "", { name: "x" }],
      ["DELETE", ""],
      ["POST", "/clone"],
      ["POST", "/run"],
      ["POST", "/watchers"],
      ["GET", "/watchers"],
      ["DELETE", "/watchers"],
    ] as const) {
      await expectError(await call(suite.emulator, `/schedules/${own.id}${suffix}`, { ...asOther, method, body }), 404, "Item not found.");
    }
    await expectError(await call(suite.emulator, `/schedules/${own.id}`, { key: OTHER_KEY }), 401);
    expect(await suite.api.read(`/schedules/${own.id}`)).toEqual(own);
  });

  it("charges a credit per call and logs each call", async () => {
    const first = await call(suite.emulator, "/schedules");
    const second = await call(suite.emulator, "/schedules/search?q=x");
    expect(Number(second.headers.get("x-ratelimit-remaining"))).toBe(Number(first.headers.get("x-ratelimit-remaining")) - 1);
    const log = (await readJson(await control(suite.emulator, "/requests"))) as { path: string; query: string; status: number }[];
    expect(log.at(-1)).toMatchObject({ path: `/${ACCOUNT}/api/schedules/search`, query: "q=x", status: 200 });
  });

  it("takes injected faults: a refused create makes nothing", async () => {
    const before = ((await suite.api.read("/schedules?limit=100")) as ApiRecord[]).length;
    await control(suite.emulator, "/faults", "PUT", { rate: 1, kinds: ["500"], methods: ["POST"], seed: 1 });
    try {
      await expectError(await post(scheduleBody({ name: "faulted" })), 500, "Internal server error.");
    } finally {
      await control(suite.emulator, "/faults", "DELETE");
    }
    expect(((await suite.api.read("/schedules?limit=100")) as ApiRecord[]).length).toBe(before);
  });

  it("shows schedules in the state dump, per account", async () => {
    const state = await readJson(await control(suite.emulator, "/state"));
    expect(state.accounts[0].schedules.length).toBeGreaterThan(0);
    expect(state.accounts[1].schedules).toEqual([]);
    expect(state.accounts[0].schedules[0]).toMatchObject({ ownerId: expect.any(Number), activeRuns: expect.any(Array) });
  });
});
