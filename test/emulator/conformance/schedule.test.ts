import { beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT, call, expectError, LEE_KEY, nextLink, readJson, type ApiRecord } from "../helpers";
import { FUTURE, scheduleBody, scheduleSuite } from "../schedules/helpers";

/**
 * Schedules (facts, "Schedules"): create, list and search, with every validation rule of a
 * body (`schedule-changes.test.ts` has the rest). At real speed nothing here fires: the
 * schedules are disabled or start in the future.
 */

const suite = scheduleSuite();
const { expectSchedule, post } = suite;

describe("POST /schedules", () => {
  it("answers 201 with the documented defaults, disabled, owned and watched by the caller", async () => {
    const before = Date.now();
    const response = await call(suite.emulator, "/schedules", { method: "POST", body: { task: { packages: [{ package_id: 101 }] } }, key: LEE_KEY });
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
    const watchers = await suite.api.read(`/schedules/${schedule.id}/watchers`, LEE_KEY);
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
    const schedule = expectSchedule(await suite.api.create(body));
    expect(schedule).toMatchObject({
      ...body,
      start_at: FUTURE,
      next_run_at: FUTURE,
      task: {
        ...body.task,
        packages: [
          { package_id: "101", variables: { run_date: "'2026-01-31'" } },
          { package_id: "102", variables: {} },
        ],
      },
    });
    expect(await suite.api.read(`/schedules/${schedule.id}`)).toEqual(schedule);
  });

  it.each<[string, unknown, RegExp]>([
    ["no task", { name: "x" }, /^task is required$/],
    ["no packages", { task: {} }, /^task\.packages is required$/],
    ["an empty package list", { task: { packages: [] } }, /^task\.packages must list at least one package$/],
    ["packages as an index-keyed object", { task: { packages: { 0: { package_id: 101 } } } }, /^task\.packages must be an array$/],
    ["a package without id", { task: { packages: [{ variables: {} }] } }, /^task\.packages\[0\]\.package_id is required$/],
    [
      "a package id that is not one",
      { task: { packages: [{ package_id: "abc" }] } },
      /^task\.packages\[0\]\.package_id must be a positive integer, or one written as a string$/,
    ],
    [
      "an unknown package",
      scheduleBody({}, [{ package_id: 101 }, { package_id: 999 }]),
      /^task\.packages\[1\]\.package_id 999 does not name a package of this account$/,
    ],
    ["another account's package", scheduleBody({}, [{ package_id: 901 }]), /^task\.packages\[0\]\.package_id 901 does not name a package of this account$/],
    ["an archived package", scheduleBody({}, [{ package_id: "103" }]), /^task\.packages\[0\]\.package_id 103 names a package that is archived$/],
    [
      "a variable that is not a string",
      scheduleBody({}, [{ package_id: 101, variables: { day: 1 } }]),
      /^task\.packages\[0\]\.variables\.day must be a string$/,
    ],
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
    [
      "a boolean in no known spelling",
      scheduleBody({ overlap: "yes", auto_retry: 2 }),
      /^overlap must be a boolean: true or false .*; auto_retry must be a boolean: true or false /,
    ],
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
      ids.push((await suite.api.create(scheduleBody({ name: `listed-${status}`, status, start_at: FUTURE }))).id);
    }
  });

  const listed = async (query: string): Promise<number[]> => ((await suite.api.read(`/schedules?${query}`)) as ApiRecord[]).map((s) => s.id);

  it("lists newest first by default, and by creation or update in either direction", async () => {
    const all = await listed("limit=100");
    expect(all).toEqual([...all].sort((a, b) => b - a));
    expect(await listed("limit=100&direction=asc")).toEqual([...all].reverse());
    await suite.api.send("PUT", `/schedules/${ids[0]}`, { description: "touched" });
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
    await suite.api.send("PUT", `/schedules/${ids[1]}`, { description: "later" });
    expect(await listed(`since=${encodeURIComponent(since)}`)).toEqual([ids[1]]);
  });

  it("pages with offset and limit, naming the next page in a Link header", async () => {
    const first = await call(suite.emulator, "/schedules?status=enabled&limit=1");
    expect(((await readJson(first)) as ApiRecord[]).length).toBe(1);
    const next = nextLink(first);
    expect(next).toBe(`${suite.emulator.url}/${ACCOUNT}/api/schedules?status=enabled&offset=1&limit=1`);
  });

  it.each<[string, RegExp]>([
    ["status=on", /^status must be all or one of enabled, disabled$/],
    ["sort=name", /^sort must be one of created, updated$/],
    ["direction=up", /^direction must be asc or desc$/],
    ["since=yesterday", /^since must be an ISO 8601 date-time/],
    ["limit=101", /^limit must be an integer between 1 and 100$/],
  ])("answers 400 to %s", async (query, message) => {
    await expectError(await call(suite.emulator, `/schedules?${query}`), 400, message);
  });
});

describe("GET /schedules/search", () => {
  let nightly: ApiRecord;
  let weekly: ApiRecord;

  beforeAll(async () => {
    nightly = await suite.api.create(scheduleBody({ name: "search nightly orders", description: "warehouse load", status: "enabled", start_at: FUTURE }));
    weekly = await suite.api.create(scheduleBody({ name: "search weekly crm", description: "contacts" }, [{ package_id: 102 }]));
  });

  const found = async (q: string, extra = ""): Promise<number[]> =>
    ((await suite.api.read(`/schedules/search?q=${encodeURIComponent(q)}${extra}`)) as ApiRecord[]).map((s) => s.id);

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
    expect(ours.sort()).toEqual(
      expected()
        .map((s) => s.id)
        .sort(),
    );
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
    await expectError(await call(suite.emulator, `/schedules/search?q=${encodeURIComponent(q)}`), 400, message);
  });

  it("answers 400 to an unknown sort", async () => {
    await expectError(await call(suite.emulator, "/schedules/search?q=x&sort=size"), 400, /^sort must be one of id, updated, created, name, relevance$/);
  });
});
