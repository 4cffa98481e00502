import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { HOOK_EVENT_IDS, HOOK_TRIGGER_STATUSES, HOOK_TYPES } from "../../../contract/vocabularies";
import { VALID_SETTINGS } from "../hooks/helpers";
import { ACCEPT, ACCOUNT, basic, call, control, DANA_KEY, expectError, OTHER_KEY, readJson, testFixtures } from "../helpers";

/**
 * Every hooks operation answers with the shapes the facts give ("Hooks"), and takes part in what
 * every area does: authentication, the credit allowance, the request log and injected faults.
 */

const isoTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);

const hookRecord = z.strictObject({
  id: z.number().int().positive(),
  name: z.string().min(1),
  type: z.enum(HOOK_TYPES),
  active: z.boolean(),
  settings: z.record(z.string(), z.unknown()),
  events: z.array(z.enum(HOOK_EVENT_IDS as [string, ...string[]])).min(1),
  salt: z.string().regex(/^[0-9a-f]{64}$/),
  created_at: isoTime,
  updated_at: isoTime,
  url: z.string().url(),
});

const pingRecord = hookRecord.extend({
  events: z.array(
    z.strictObject({
      id: z.enum(HOOK_EVENT_IDS as [string, ...string[]]),
      name: z.string(),
      last_response: z.record(z.string(), z.unknown()),
      last_trigger_status: z.enum(HOOK_TRIGGER_STATUSES),
      last_trigger_time: isoTime.nullable(),
    }),
  ),
});

const hookType = z.strictObject({
  type: z.enum(HOOK_TYPES),
  name: z.string(),
  description: z.string(),
  icon_url: z.string().url(),
  groups: z.array(z.strictObject({ group_type: z.string(), group_name: z.string() })).min(1),
});

const hookEvent = z.strictObject({ id: z.enum(HOOK_EVENT_IDS as [string, ...string[]]), group_name: z.enum(["Job", "Cluster"]), name: z.string() });

let emulator: RunningEmulator;
let hookId: number;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, fixtures: testFixtures(), creditsPerHour: 100_000 });
  const response = await call(emulator, "/hooks", { method: "POST", body: { type: "web", events: ["job"], settings: VALID_SETTINGS.web } });
  hookId = hookRecord.parse(await readJson(response)).id;
});

afterAll(() => emulator.close());

async function ok(path: string, method = "GET", body?: unknown): Promise<unknown> {
  const response = await call(emulator, path, { method, body });
  expect(response.status).toBe(method === "POST" ? 201 : 200);
  expect(response.headers.get("content-type")).toBe(ACCEPT);
  return readJson(response);
}

describe("the shapes of every operation", () => {
  it.each<[string, string, string, unknown, z.ZodType]>([
    ["create", "POST", "/hooks", { type: "email", events: ["cluster"], settings: VALID_SETTINGS.email }, hookRecord],
    ["list", "GET", "/hooks?type=web", undefined, z.array(hookRecord).min(1)],
    ["search", "GET", "/hooks/search?q=type:web", undefined, z.array(hookRecord).min(1)],
    ["types", "GET", "/hooks/types", undefined, z.array(hookType).length(HOOK_TYPES.length)],
  ])("%s", async (_, method, path, body, schema) => {
    schema.parse(await ok(path, method, body));
  });

  it("get, update, ping, reset_salt and delete", async () => {
    hookRecord.parse(await ok(`/hooks/${hookId}`));
    hookRecord.parse(await ok(`/hooks/${hookId}`, "PUT", { name: "renamed", settings: { url: "https://example.com/again" } }));
    pingRecord.parse(await ok(`/hooks/${hookId}/ping`));
    z.strictObject({ salt: z.string().regex(/^[0-9a-f]{64}$/) }).parse(await ok(`/hooks/${hookId}/reset_salt`, "PUT"));
    const deleted = hookRecord.parse(await ok(`/hooks/${hookId}`, "DELETE"));
    expect(deleted.name).toBe("renamed");
  });

  it("hook_events, at the host root", async () => {
    const response = await fetch(`${emulator.url}/hook_events`, { headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY) } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(ACCEPT);
    z.array(hookEvent)
      .length(HOOK_EVENT_IDS.length)
      .parse(await readJson(response));
  });
});

describe("what every area takes part in", () => {
  it("refuses another account's key with 401, and answers 405 with Allow", async () => {
    await expectError(await call(emulator, "/hooks", { key: OTHER_KEY }), 401);
    const response = await call(emulator, "/hooks/types", { method: "POST", body: {} });
    await expectError(response, 405);
    expect(response.headers.get("allow")).toBe("GET");
    const root = await fetch(`${emulator.url}/hook_events`, { method: "DELETE", headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY) } });
    expect(root.status).toBe(405);
  });

  it("charges a credit per call and logs it, host root included", async () => {
    await control(emulator, "/requests", "DELETE");
    const first = await call(emulator, "/hooks");
    const second = await fetch(`${emulator.url}/hook_events`, { headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY) } });
    expect(Number(second.headers.get("x-ratelimit-remaining"))).toBe(Number(first.headers.get("x-ratelimit-remaining")) - 1);
    const log = (await readJson(await control(emulator, "/requests"))) as { method: string; path: string; status: number; userId: number }[];
    expect(log.map(({ method, path, status, userId }) => ({ method, path, status, userId }))).toEqual([
      { method: "GET", path: `/${ACCOUNT}/api/hooks`, status: 200, userId: 1 },
      { method: "GET", path: "/hook_events", status: 200, userId: 1 },
    ]);
  });

  it("meets injected faults like any area: a refused create makes no hook", async () => {
    const before = ((await ok("/hooks?limit=100")) as unknown[]).length;
    await control(emulator, "/faults", "PUT", { rate: 1, kinds: ["500"], methods: ["POST"], seed: 1 });
    try {
      const response = await call(emulator, "/hooks", { method: "POST", body: { type: "email", events: ["job"], settings: VALID_SETTINGS.email } });
      await expectError(response, 500, "Internal server error.");
    } finally {
      await control(emulator, "/faults", "DELETE");
    }
    expect(((await ok("/hooks?limit=100")) as unknown[]).length).toBe(before);
  });
});
