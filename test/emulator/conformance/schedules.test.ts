import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { ACCOUNT, call, control, expectError, expectOnlyFields, LEE_KEY, nextLink, OTHER_ACCOUNT, OTHER_KEY, readJson, startTestEmulator } from "../helpers";
import { scheduleBody, scheduleCalls, scheduleFixtures, SCHEDULE_FIELDS, TASK_FIELDS, type ApiRecord, type ScheduleCalls } from "../schedule-support";

/**
 * Schedules (facts, "Schedules"): every operation, every validation rule, and the rules the
 * schedules share with the other areas. At real speed nothing here fires unless asked to: the
 * schedules are disabled or start in the future.
 */

let emulator: RunningEmulator;
let api: ScheduleCalls;

const FUTURE = "2099-01-01T00:00:00.000Z";

beforeAll(async () => {
  emulator = await startTestEmulator(scheduleFixtures());
  api = scheduleCalls(emulator);
});

afterAll(() => emulator.close());

function expectSchedule(body: ApiRecord): ApiRecord {
  expectOnlyFields(body, SCHEDULE_FIELDS);
  expectOnlyFields(body.task, TASK_FIELDS);
  expect(body.url).toBe(`${emulator.url}/${ACCOUNT}/api/schedules/${body.id}`);
  expect(body.html_url).toBe(`${emulator.url}/${ACCOUNT}/schedules/${body.id}`);
  return body;
}

const post = (body: unknown) => call(emulator, "/schedules", { method: "POST", body });

describe("POST /schedules", () => {
  it("answers 201 with the documented defaults, disabled, owned and watched by the caller", async () => {
    const before = Date.now();
    const response = await call(emulator, "/schedules", { method: "POST", body: { task: { packages: [{ package_id: 101 }] } }, key: LEE_KEY });
    expect(response.status).toBe(201);
    const schedule = expectSchedule(await readJson(response));
    expect(schedule).toMatchObject({
      name: "Untitled",
      description: "",
      owner_id: 2,
      status: "disabled",
      next_run_at: null,
      last_run_at: null,
      last_run_status: null,
      execution_count: 0,
      interval_amount: 1,
      interval_unit: "hours",
      overlap: true,
      auto_retry: false,
      auto_retry_attempts: 3,
      reuse_cluster_strategy: "any",
      task: { nodes: 2, terminate_on_idle: true, time_to_idle: 60, packages: [{ package_id: "101", variables: {} }] },
    });
    // start_at defaults to the time of creation.
    expect(Date.parse(schedule.start_at)).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(schedule.start_at)).toBeLessThanOrEqual(Date.now());
    const watchers = await api.read(`/schedules/${schedule.id}/watchers`, LEE_KEY);
    expect(watchers).toEqual([{ id: 2, display_name: "Lee Analyst" }]);
  });

  it("takes every documented field, package ids as numbers or strings, and answers times in UTC", async () => {
    const body = {
      name: "nightly rollup",
      description: "orders, then CRM",
      status: "enabled",
      start_at: "2099-01-01T02:00:00+02:00",
      interval_amount: 2,
      interval_unit: "months",
      overlap: false,
      auto_retry: true,
      auto_retry_attempts: 5,
      reuse_cluster_strategy: "self",
      task: {
        nodes: 4,
        terminate_on_idle: false,
        time_to_idle: 900,
        packages: [
          { package_id: "101", variables: { run_date: "'2026-01-31'" } },
          { package_id: 102, variables: {} },
        ],
      },
    };
    const schedule = expectSchedule(await api.create(body));
    expect(schedule).toMatchObject({
      ...body,
      start_at: FUTURE,
      next_run_at: FUTURE,
      task: { ...body.task, packages: [{ package_id: "101", variables: { run_date: "'2026-01-31'" } }, { package_id: "102", variables: {} }] },
    });
    expect(await api.read(`/schedules/${schedule.id}`)).toEqual(schedule);
  });

  it.each<[string, unknown, RegExp]>([
    ["no task", { name: "x" }, /^task is required$/],
    ["no packages", { task: {} }, /^task\.packages is required$/],
    ["an empty package list", { task: { packages: [] } }, /^task\.packages must list at least one package$/],
    ["packages as an index-keyed object", { task: { packages: { 0: { package_id: 101 } } } }, /^task\.packages must be an array$/],
    ["a package without id", { task: { packages: [{ variables: {} }] } }, /^task\.packages\[0\]\.package_id is required$/],
    ["a package id that is not one", { task: { packages: [{ package_id: "abc" }] } }, /^task\.packages\[0\]\.package_id must be a positive integer, or one written as a string$/],
    ["an unknown package", scheduleBody({}, [{ package_id: 101 }, { package_id: 999 }]), /^task\.packages\[1\]\.package_id 999 does not name a package of this account$/],
    ["another account's package", scheduleBody({}, [{ package_id: 901 }]), /^task\.packages\[0\]\.package_id 901 does not name a package of this account$/],
    ["an archived package", scheduleBody({}, [{ package_id: "103" }]), /^task\.packages\[0\]\.package_id 103 names a package that is archived$/],
    ["a variable that is not a string", scheduleBody({}, [{ package_id: 101, variables: { day: 1 } }]), /^task\.packages\[0\]\.variables\.day must be a string$/],
    ["variables that are not an object", scheduleBody({}, [{ package_id: 101, variables: ["a"] }]), /^task\.packages\[0\]\.variables must be an object$/],
    ["an unknown interval unit", scheduleBody({ interval_unit: "years" }), /^interval_unit must be one of minutes, hours, days, weeks, months$/],
    ["an interval of 0", scheduleBody({ interval_amount: 0 }), /^interval_amount must be an integer of at least 1$/],
    ["a fractional interval", scheduleBody({ interval_amount: 1.5 }), /^interval_amount must be an integer$/],
    ["an interval as text", scheduleBody({ interval_amount: "2" }), /^interval_amount must be an integer$/],
    ["0 retry attempts", scheduleBody({ auto_retry_attempts: 0 }), /^auto_retry_attempts must be an integer between 1 and 5$/],
    ["6 retry attempts", scheduleBody({ auto_retry_attempts: 6 }), /^auto_retry_attempts must be an integer between 1 and 5$/],
    ["an unknown reuse strategy", scheduleBody({ reuse_cluster_strategy: "some" }), /^reuse_cluster_strategy must be one of any, self, none$/],
    ["an unknown status", scheduleBody({ status: "on" }), /^status must be one of enabled, disabled$/],
    ["a start that is not a time", scheduleBody({ start_at: "tomorrow" }), /^start_at must be an ISO 8601 date-time/],
    ["a boolean as text", scheduleBody({ overlap: "yes", auto_retry: 1 }), /^overlap must be a boolean; auto_retry must be a boolean$/],
    ["a blank name", scheduleBody({ name: " " }), /^name must not be blank$/],
    ["0 nodes", { task: { nodes: 0, packages: [{ package_id: 101 }] } }, /^task\.nodes must be an integer between 1 and 100$/],
    ["0 seconds to idle", { task: { time_to_idle: 0, packages: [{ package_id: 101 }] } }, /^task\.time_to_idle must be an integer between 1 and 86400$/],
    ["an unknown field", scheduleBody({ colour: "red" }), /^colour is not a known field$/],
    ["the old wrapped form", { schedule: scheduleBody() }, /^task is required; schedule is not a known field$/],
  ])("answers 422 to %s", async (_, body, message) => {
    await expectError(await post(body), 422, message);
  });

  it("answers 400 to a body that is not an object", async () => {
    await expectError(await post([]), 400, "Request body must be a JSON object.");
  });
});

describe("GET /schedules", () => {
  let ids: number[];

  beforeAll(async () => {
    ids = [];
    for (const status of ["enabled", "disabled", "enabled"]) {
      ids.push((await api.create(scheduleBody({ name: `listed-${status}`, status, start_at: FUTURE }))).id);
    }
  });

  const listed = async (query: string): Promise<number[]> => ((await api.read(`/schedules?${query}`)) as ApiRecord[]).map((s) => s.id);

  it("lists newest first by default, and by creation or update in either direction", async () => {
    const all = await listed("limit=100");
    expect(all).toEqual([...all].sort((a, b) => b - a));
    expect(await listed("limit=100&direction=asc")).toEqual([...all].reverse());
    await api.send("PUT", `/schedules/${ids[0]}`, { description: "touched" });
    expect((await listed("limit=100&sort=updated"))[0]).toBe(ids[0]);
  });

  it("filters by status", async () => {
    const enabled = await listed("status=enabled&limit=100");
    expect(enabled).toEqual(expect.arrayContaining([ids[0], ids[2]]));
    expect(enabled).not.toContain(ids[1]);
    expect(await listed("status=disabled&limit=100")).toContain(ids[1]);
    expect((await listed("status=all&limit=100")).length).toBeGreaterThanOrEqual(3);
  });

  it("keeps those updated at or after `since`", async () => {
    const since = new Date().toISOString();
    await api.send("PUT", `/schedules/${ids[1]}`, { description: "later" });
    expect(await listed(`since=${encodeURIComponent(since)}`)).toEqual([ids[1]]);
  });

  it("pages with offset and limit, naming the next page in a Link header", async () => {
    const first = await call(emulator, "/schedules?status=enabled&limit=1");
    expect(((await readJson(first)) as ApiRecord[]).length).toBe(1);
    const next = nextLink(first);
    expect(next).toBe(`${emulator.url}/${ACCOUNT}/api/schedules?status=enabled&offset=1&limit=1`);
  });

  it.each<[string, RegExp]>([
    ["status=on", /^status must be all or one of enabled, disabled$/],
    ["sort=name", /^sort must be one of created, updated$/],
    ["direction=up", /^direction must be asc or desc$/],
    ["since=yesterday", /^since must be an ISO 8601 date-time/],
    ["limit=101", /^limit must be an integer between 1 and 100$/],
  ])("answers 400 to %s", async (query, message) => {
    await expectError(await call(emulator, `/schedules?${query}`), 400, message);
  });
});

describe("GET /schedules/search", () => {
  let nightly: ApiRecord;
  let weekly: ApiRecord;

  beforeAll(async () => {
    nightly = await api.create(scheduleBody({ name: "search nightly orders", description: "warehouse load", status: "enabled", start_at: FUTURE }));
    weekly = await api.create(scheduleBody({ name: "search weekly crm", description: "contacts" }, [{ package_id: 102 }]));
  });

  const found = async (q: string, extra = ""): Promise<number[]> =>
    ((await api.read(`/schedules/search?q=${encodeURIComponent(q)}${extra}`)) as ApiRecord[]).map((s) => s.id);

  it.each<[string, () => ApiRecord[]]>([
    ["name:nightly", () => [nightly]],
    ['name:"weekly crm"', () => [weekly]],
    ["description:warehouse", () => [nightly]],
    ["search status:enabled", () => [nightly]],
    ["search -status:enabled", () => [weekly]],
    ["name:nightly name:weekly", () => [nightly, weekly]],
    ["name:nightly status:disabled", () => []],
    ["package:102", () => [weekly]],
    ["package:crm-sync", () => [weekly]],
    ["CONTACTS", () => [weekly]],
  ])("finds %s", async (q, expected) => {
    const ids = await found(q);
    const ours = ids.filter((id) => id === nightly.id || id === weekly.id);
    expect(ours.sort()).toEqual(expected().map((s) => s.id).sort());
  });

  it("finds by id, and by creation time", async () => {
    expect(await found(`id:${weekly.id}`)).toEqual([weekly.id]);
    expect(await found(`created:<2000-01-01`)).toEqual([]);
    expect(await found(`search created:>2000-01-01`)).toEqual(expect.arrayContaining([nightly.id, weekly.id]));
  });

  it("sorts by relevance by default, then as asked", async () => {
    const ours = (ids: number[]) => ids.filter((id) => id === nightly.id || id === weekly.id);
    // "warehouse search" matches the nightly schedule twice and the weekly one once.
    expect(ours(await found("warehouse search"))).toEqual([nightly.id, weekly.id]);
    expect(ours(await found("warehouse search", "&direction=desc"))).toEqual([weekly.id, nightly.id]);
    expect(await found("name:search", "&sort=name&direction=desc")).toEqual([weekly.id, nightly.id]);
  });

  it.each<[string, RegExp]>([
    ["", /^q is required$/],
    ["colour:red", /^q: colour is not a searchable attribute; expected one of id, name, description, status, package, created, updated$/],
    ["created:>someday", /^q: created:>someday needs a date/],
  ])("answers 400 to q=%j", async (q, message) => {
    await expectError(await call(emulator, `/schedules/search?q=${encodeURIComponent(q)}`), 400, message);
  });

  it("answers 400 to an unknown sort", async () => {
    await expectError(await call(emulator, "/schedules/search?q=x&sort=size"), 400, /^sort must be one of id, updated, created, name, relevance$/);
  });
});

describe("PUT /schedules/{id}", () => {
  it("changes only the fields given and answers 200 with the schedule", async () => {
    const created = await api.create(scheduleBody({ description: "before", task: { nodes: 3, packages: [{ package_id: 101, variables: { a: "'1'" } }] } }));
    const updated = expectSchedule(await api.send("PUT", `/schedules/${created.id}`, { description: "after", task: { time_to_idle: 120 } }));
    expect(updated).toMatchObject({ name: "nightly", description: "after", task: { nodes: 3, time_to_idle: 120, packages: [{ package_id: "101", variables: { a: "'1'" } }] } });
    expect(updated.updated_at >= created.updated_at).toBe(true);
    const replaced = await api.send("PUT", `/schedules/${created.id}`, { task: { packages: [{ package_id: "102" }, { package_id: 101 }] } });
    expect(replaced.task.packages).toEqual([{ package_id: "102", variables: {} }, { package_id: "101", variables: {} }]);
  });

  it("leaves updated_at alone when nothing changes", async () => {
    const created = await api.create(scheduleBody());
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await api.send("PUT", `/schedules/${created.id}`, { name: "nightly" })).updated_at).toBe(created.updated_at);
  });

  it("sets next_run_at when enabled, and clears it when disabled", async () => {
    const created = await api.create(scheduleBody({ start_at: FUTURE }));
    expect(created.next_run_at).toBeNull();
    expect((await api.send("PUT", `/schedules/${created.id}`, { status: "enabled" })).next_run_at).toBe(FUTURE);
    expect((await api.send("PUT", `/schedules/${created.id}`, { start_at: "2098-01-01T00:00:00Z" })).next_run_at).toBe("2098-01-01T00:00:00.000Z");
    expect((await api.send("PUT", `/schedules/${created.id}`, { status: "disabled" })).next_run_at).toBeNull();
  });

  it("refuses a new start_at once the schedule has run, and takes the same one again", async () => {
    const created = await api.create(scheduleBody({ start_at: FUTURE }));
    expect((await api.send("PUT", `/schedules/${created.id}`, { start_at: "2098-06-01T00:00:00Z" })).start_at).toBe("2098-06-01T00:00:00.000Z");
    expect((await api.send("POST", `/schedules/${created.id}/run`)).execution_count).toBe(1);
    const refused = await call(emulator, `/schedules/${created.id}`, { method: "PUT", body: { start_at: FUTURE } });
    await expectError(refused, 422, "start_at cannot be changed once the schedule has run (execution_count is 1)");
    expect((await api.send("PUT", `/schedules/${created.id}`, { start_at: "2098-06-01T02:00:00+02:00", name: "kept" })).name).toBe("kept");
  });

  it.each<[unknown, RegExp]>([
    [{ task: { packages: [] } }, /^task\.packages must list at least one package$/],
    [{ task: { packages: [{ package_id: 103 }] } }, /^task\.packages\[0\]\.package_id 103 names a package that is archived$/],
    [{ interval_amount: 0, reuse_cluster_strategy: "all" }, /^interval_amount must be an integer of at least 1; reuse_cluster_strategy must be one of any, self, none$/],
    [{ name: null }, /^name must be a string$/],
  ])("answers 422 to %j", async (body, message) => {
    const created = await api.create(scheduleBody());
    await expectError(await call(emulator, `/schedules/${created.id}`, { method: "PUT", body }), 422, message);
    expect(await api.read(`/schedules/${created.id}`)).toEqual(created);
  });

  it("answers 404 for an unknown schedule before looking at the body", async () => {
    await expectError(await call(emulator, "/schedules/999999", { method: "PUT", body: { colour: 1 } }), 404, "Item not found.");
  });
});

describe("DELETE, clone and run", () => {
  it("deletes for good, answering 200 with the schedule as it was", async () => {
    const created = await api.create(scheduleBody());
    const deleted = expectSchedule(await api.send("DELETE", `/schedules/${created.id}`));
    expect(deleted).toEqual(created);
    await expectError(await call(emulator, `/schedules/${created.id}`), 404, "Item not found.");
    await expectError(await call(emulator, `/schedules/${created.id}`, { method: "DELETE" }), 404, "Item not found.");
  });

  it("clones with 201: the same settings, `Copy of` the name, disabled, the caller's, never run", async () => {
    const original = await api.create(scheduleBody({ status: "enabled", start_at: FUTURE, overlap: false, interval_unit: "days" }, [{ package_id: 101, variables: { v: "'x'" } }]));
    await api.send("POST", `/schedules/${original.id}/run`);
    const response = await call(emulator, `/schedules/${original.id}/clone`, { method: "POST", key: LEE_KEY });
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
    const original = await api.create(scheduleBody({ name: "😀".repeat(255) }));
    const copy = await readJson(await call(emulator, `/schedules/${original.id}/clone`, { method: "POST" }));
    expect([...copy.name].length).toBe(255);
    expect(copy.name.startsWith("Copy of 😀")).toBe(true);
  });

  it("runs now with 200, even disabled: one job per package, started by the schedule", async () => {
    const schedule = await api.create(scheduleBody({ name: "run-now" }, [{ package_id: 101, variables: { day: "'mon'" } }, { package_id: 104 }]));
    const ran = expectSchedule(await api.send("POST", `/schedules/${schedule.id}/run`));
    expect(ran).toMatchObject({ status: "disabled", execution_count: 1, last_run_status: "running", next_run_at: null });
    expect(ran.last_run_at).not.toBeNull();
    const jobs = ((await api.read("/jobs?limit=100")) as ApiRecord[]).filter((job) => job.creator.type === "Schedule" && job.creator.id === schedule.id);
    expect(jobs.map((job) => job.package_id).sort()).toEqual([101, 104]);
    for (const job of jobs) {
      expect(job.creator).toEqual({
        type: "Schedule",
        id: schedule.id,
        display_name: "run-now",
        url: `${emulator.url}/${ACCOUNT}/api/schedules/${schedule.id}`,
        html_url: `${emulator.url}/${ACCOUNT}/schedules/${schedule.id}`,
      });
      expect(job).toMatchObject({ attempts: 0, master_auto_retry_attempts: null, owner_id: 1 });
    }
    expect(jobs.find((job) => job.package_id === 101)!.variables).toEqual({ day: "'mon'" });
  });

  it.each([["POST", "/clone"], ["POST", "/run"], ["GET", ""], ["DELETE", ""], ["GET", "/watchers"]])("answers 404 to %s of an unknown schedule%s", async (method, suffix) => {
    await expectError(await call(emulator, `/schedules/999999${suffix}`, { method }), 404, "Item not found.");
  });

  it("answers 405 naming the allowed methods", async () => {
    const response = await call(emulator, "/schedules/1/run", { method: "GET" });
    await expectError(response, 405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("watchers", () => {
  it("adds the caller with 200, lists watchers, and stops with 204", async () => {
    const schedule = await api.create(scheduleBody());
    const path = `/schedules/${schedule.id}/watchers`;
    const watched = await readJson(await call(emulator, path, { method: "POST", key: LEE_KEY }));
    expect(watched).toEqual({ created_at: expect.any(String), schedule_url: schedule.url });
    const again = await readJson(await call(emulator, path, { method: "POST", key: LEE_KEY }));
    expect(again.created_at).toBe(watched.created_at);
    expect(await api.read(path)).toEqual([{ id: 1, display_name: "Dana Platform" }, { id: 2, display_name: "Lee Analyst" }]);
    const stopped = await call(emulator, path, { method: "DELETE" });
    expect(stopped.status).toBe(204);
    expect(await stopped.text()).toBe("");
    expect((await call(emulator, path, { method: "DELETE" })).status).toBe(204);
    expect(await api.read(path)).toEqual([{ id: 2, display_name: "Lee Analyst" }]);
  });

  it("tells watchers through their notifications when the schedule is enabled or disabled", async () => {
    const schedule = await api.create(scheduleBody({ name: "watched", start_at: FUTURE }));
    await call(emulator, `/schedules/${schedule.id}/watchers`, { method: "POST", key: LEE_KEY });
    await api.send("PUT", `/schedules/${schedule.id}`, { status: "enabled" });
    await api.send("PUT", `/schedules/${schedule.id}`, { status: "disabled" });
    const titles = ((await api.read("/notifications?limit=100", LEE_KEY)) as ApiRecord[]).map((n) => n.title);
    expect(titles.slice(0, 2)).toEqual(["Schedule 'watched' disabled", "Schedule 'watched' enabled"]);
  });
});

describe("what every area shares", () => {
  const asOther = { key: OTHER_KEY, account: OTHER_ACCOUNT };

  it("keeps each account's schedules to itself", async () => {
    const own = await api.create(scheduleBody({ name: "isolated-own" }));
    const listed = (await readJson(await call(emulator, "/schedules?limit=100", asOther))) as ApiRecord[];
    expect(listed.map((s) => s.id)).not.toContain(own.id);
    expect(await readJson(await call(emulator, "/schedules/search?q=isolated", asOther))).toEqual([]);
    for (const [method, suffix, body] of [["GET", ""], ["PUT", "", { name: "x" }], ["DELETE", ""], ["POST", "/clone"], ["POST", "/run"], ["POST", "/watchers"], ["GET", "/watchers"], ["DELETE", "/watchers"]] as const) {
      await expectError(await call(emulator, `/schedules/${own.id}${suffix}`, { ...asOther, method, body }), 404, "Item not found.");
    }
    await expectError(await call(emulator, `/schedules/${own.id}`, { key: OTHER_KEY }), 401);
    expect(await api.read(`/schedules/${own.id}`)).toEqual(own);
  });

  it("charges a credit per call and logs each call", async () => {
    const first = await call(emulator, "/schedules");
    const second = await call(emulator, "/schedules/search?q=x");
    expect(Number(second.headers.get("x-ratelimit-remaining"))).toBe(Number(first.headers.get("x-ratelimit-remaining")) - 1);
    const log = (await readJson(await control(emulator, "/requests"))) as { path: string; query: string; status: number }[];
    expect(log.at(-1)).toMatchObject({ path: `/${ACCOUNT}/api/schedules/search`, query: "q=x", status: 200 });
  });

  it("takes injected faults: a refused create makes nothing", async () => {
    const before = ((await api.read("/schedules?limit=100")) as ApiRecord[]).length;
    await control(emulator, "/faults", "PUT", { rate: 1, kinds: ["500"], methods: ["POST"], seed: 1 });
    try {
      await expectError(await post(scheduleBody({ name: "faulted" })), 500, "Internal server error.");
    } finally {
      await control(emulator, "/faults", "DELETE");
    }
    expect(((await api.read("/schedules?limit=100")) as ApiRecord[]).length).toBe(before);
  });

  it("shows schedules in the state dump, per account", async () => {
    const state = await readJson(await control(emulator, "/state"));
    expect(state.accounts[0].schedules.length).toBeGreaterThan(0);
    expect(state.accounts[1].schedules).toEqual([]);
    expect(state.accounts[0].schedules[0]).toMatchObject({ ownerId: expect.any(Number), activeRuns: expect.any(Array) });
  });
});
