import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { call, expectError, readJson, startTestEmulator, testFixtures } from "./helpers";

/**
 * Booleans in the spellings the service's own clients send (facts: "true, t or 1"): every
 * boolean of a request body, and boolean query parameters, take true/false, 1/0, "1"/"0",
 * "t"/"f" and "true"/"false", and are stored and answered as real booleans.
 */

let emulator: RunningEmulator;

beforeAll(async () => {
  const [acme, globex] = testFixtures().accounts;
  emulator = await startTestEmulator({
    accounts: [
      {
        ...acme!,
        packages: [{ id: 101, name: "orders-rollup" }],
        notifications: [
          { id: 901, userId: 1, title: "read one", body: "…", read: true },
          { id: 902, userId: 1, title: "unread one", body: "…", read: false },
        ],
      },
      globex!,
    ],
  });
});

afterAll(async () => {
  await emulator.close();
});

const TRUE_SPELLINGS: unknown[] = [true, 1, "1", "t", "true"];
const FALSE_SPELLINGS: unknown[] = [false, 0, "0", "f", "false"];
const REFUSED: unknown[] = ["yes", "no", 2, -1, 0.5, "T", "TRUE", "", null, [], {}];
const RULE = 'must be a boolean: true or false (1 or 0, "t" or "f" are taken too)';

async function send(method: string, path: string, body: unknown): Promise<any> {
  const response = await call(emulator, path, { method, body });
  expect(response.status, JSON.stringify(body)).toBeLessThan(300);
  return readJson(response);
}

const scheduleBody = (extra: Record<string, unknown>, task: Record<string, unknown> = {}) => ({
  ...extra,
  task: { packages: [{ package_id: 101 }], ...task },
});

describe("boolean body fields", () => {
  const spellings = [...TRUE_SPELLINGS.map((v) => [v, true] as const), ...FALSE_SPELLINGS.map((v) => [v, false] as const)];

  it.each(spellings)("clusters' terminate_on_idle %j is stored and answered as %s", async (sent, expected) => {
    const created = await send("POST", "/clusters", { nodes: 1, terminate_on_idle: sent });
    expect(created.terminate_on_idle).toBe(expected);
    const read = await send("GET", `/clusters/${created.id}`, undefined);
    expect(read.terminate_on_idle).toBe(expected);
    const flipped = await send("PUT", `/clusters/${created.id}`, { terminate_on_idle: !expected ? 1 : 0 });
    expect(flipped.terminate_on_idle).toBe(!expected);
  });

  it.each(spellings)("schedules' overlap, auto_retry and task.terminate_on_idle %j read as %s", async (sent, expected) => {
    const created = await send("POST", "/schedules", scheduleBody({ overlap: sent, auto_retry: sent }, { terminate_on_idle: sent }));
    expect(created).toMatchObject({ overlap: expected, auto_retry: expected, task: { terminate_on_idle: expected } });
    const updated = await send("PUT", `/schedules/${created.id}`, { overlap: expected ? "f" : "t" });
    expect(updated.overlap).toBe(!expected);
  });

  it.each(spellings)("hooks' active and settings.insecure_ssl %j read as %s", async (sent, expected) => {
    const created = await send("POST", "/hooks", { type: "web", events: ["job"], settings: { url: "https://ci.example/", insecure_ssl: sent }, active: sent });
    expect(created.active).toBe(expected);
    expect(created.settings.insecure_ssl).toBe(expected);
    const updated = await send("PUT", `/hooks/${created.id}`, { settings: { url: "https://ci.example/" }, active: expected ? "0" : "1" });
    expect(updated.active).toBe(!expected);
  });

  it("a web hook's basic_auth given as 1 requires its data, as true does", async () => {
    const response = await call(emulator, "/hooks", {
      method: "POST",
      body: { type: "web", events: ["job"], settings: { url: "https://ci.example/", basic_auth: 1 } },
    });
    await expectError(response, 422, "settings.basic_auth_data is required when basic_auth is true");
  });

  it.each(REFUSED)("refuses %j with 422 naming each field and the spellings taken", async (sent) => {
    const cluster = await call(emulator, "/clusters", { method: "POST", body: { nodes: 1, terminate_on_idle: sent } });
    await expectError(cluster, 422, `terminate_on_idle ${RULE}`);
    const schedule = await call(emulator, "/schedules", { method: "POST", body: scheduleBody({ overlap: sent }, { terminate_on_idle: sent }) });
    await expectError(schedule, 422, `overlap ${RULE}; task.terminate_on_idle ${RULE}`);
    const hook = await call(emulator, "/hooks", { method: "POST", body: { type: "email", events: ["job"], settings: { emails: "a@b.co" }, active: sent } });
    await expectError(hook, 422, `active ${RULE}`);
  });
});

describe("boolean query parameters", () => {
  async function titles(query: string): Promise<string[]> {
    const response = await call(emulator, `/notifications${query}`);
    expect(response.status).toBe(200);
    return ((await readJson(response)) as { title: string }[]).map((n) => n.title);
  }

  it.each(["true", "1", "t"])("read=%s lists the read notifications", async (text) => {
    expect(await titles(`?read=${text}`)).toEqual(["read one"]);
  });

  it.each(["false", "0", "f"])("read=%s lists the unread notifications", async (text) => {
    expect(await titles(`?read=${text}`)).toEqual(["unread one"]);
  });

  it.each(["yes", "", "2", "TRUE"])("read=%s is a 400 naming the parameter and the spellings taken", async (text) => {
    await expectError(await call(emulator, `/notifications?read=${text}`), 400, `read ${RULE}`);
  });
});
