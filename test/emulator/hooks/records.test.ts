import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../../emulator";
import { FixturesError, validateFixtures } from "../../../emulator/fixtures";
import { isValidHookSignature } from "../../../contract/hook-signature";
import { SECRET_TEXTS, startReceiver, VALID_SETTINGS } from "./helpers";
import { call, closedAfterEach, control, readJson, testFixtures } from "../helpers";

/**
 * Hooks of types the emulator cannot reach record what they would have sent; hooks come
 * from fixtures (a fixed salt included) and outlive a restart with their secret settings.
 */

const SALT = "ab".repeat(32);
const tracked = closedAfterEach();
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function fixtures(hooks: unknown[]): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [{ ...acme!, clusters: [{ id: 11, name: "main" }], packages: [{ id: 102, name: "fine", run: { seconds: 5 } }], hooks } as never, globex!],
  };
}

const NON_WEB = (["slack", "email", "hipchat", "pagerduty"] as const).map((type, index) => ({
  id: 50 + index,
  type,
  events: ["job"],
  settings: VALID_SETTINGS[type],
}));

async function start(hooks: unknown[], dataDir?: string): Promise<RunningEmulator> {
  return tracked(await startEmulator({ port: 0, fixtures: fixtures(hooks), speed: 200, dataDir }));
}

async function runToCompletion(emulator: RunningEmulator): Promise<number> {
  const job = await readJson(await call(emulator, "/jobs", { method: "POST", body: { cluster_id: 11, package_id: 102 } }));
  for (let polls = 0; (await readJson(await call(emulator, `/jobs/${job.id}`))).status !== "completed"; polls++) {
    if (polls > 500) throw new Error("the job did not complete");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return job.id;
}

describe("slack, email, hipchat and pagerduty hooks", () => {
  it("record what they would have sent, without their secrets, in /_emulator/hook-deliveries", async () => {
    const emulator = await start(NON_WEB);
    const jobId = await runToCompletion(emulator);
    const text = await (await control(emulator, "/hook-deliveries")).text();
    for (const secret of SECRET_TEXTS) expect(text).not.toContain(secret);
    const { deliveries } = JSON.parse(text);
    for (const hook of NON_WEB) {
      const own = deliveries.filter((d: any) => d.hookId === hook.id);
      expect(own.map((d: any) => d.event)).toEqual(["job.submitted", "job.started", "job.completed"]);
      expect(own.every((d: any) => d.status === "success" && d.hookType === hook.type && d.request === null)).toBe(true);
    }
    const completed = (id: number) => deliveries.find((d: any) => d.hookId === id && d.event === "job.completed").message;
    expect(completed(50)).toEqual({ team: "data", channel: "alerts", username: null, text: `Job ${jobId}: Job completed (acme-data)` });
    expect(completed(51)).toMatchObject({ to: ["ops@example.com", "dana@example.com"], subject: `Job ${jobId}: Job completed (acme-data)` });
    expect(completed(52)).toMatchObject({ room: "1234", message: `Job ${jobId}: Job completed (acme-data)` });
    expect(completed(53)).toMatchObject({ service_name: "ETL", event_type: "trigger", details: { event: "job.completed", object: { id: jobId } } });
    const [event] = (await readJson(await call(emulator, "/hooks/51/ping"))).events;
    expect(event).toMatchObject({ id: "job", last_trigger_status: "success", last_response: { recorded: true } });
  });

  it("empties the record on DELETE and validates the timeout setting", async () => {
    const emulator = await start(NON_WEB.slice(0, 1));
    await call(emulator, "/hooks/50/ping");
    expect((await readJson(await control(emulator, "/hook-deliveries"))).deliveries).toHaveLength(1);
    expect((await readJson(await control(emulator, "/hook-deliveries", "DELETE"))).deliveries).toEqual([]);
    for (const [body, message] of [
      [{}, "timeoutMs is required"],
      [{ timeoutMs: 0 }, "timeoutMs must be an integer from 1 to 600000, not 0"],
      [{ timeoutMs: 1, colour: 1 }, "colour is not a hook delivery setting; expected timeoutMs"],
    ] as const) {
      const response = await control(emulator, "/hook-deliveries", "PUT", body);
      expect(response.status).toBe(400);
      expect((await readJson(response)).message).toBe(message);
    }
  });
});

describe("hooks in fixtures", () => {
  it("are seeded with their settings, events and fixed salt, secrets kept but not shown", async () => {
    const emulator = await start([{ id: 40, type: "web", name: "ci", events: ["job.failed"], settings: VALID_SETTINGS.web, salt: SALT }]);
    const text = await (await call(emulator, "/hooks/40")).text();
    for (const secret of SECRET_TEXTS) expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({ id: 40, name: "ci", active: true, salt: SALT, settings: { url: VALID_SETTINGS.web.url, basic_auth: true } });
  });

  it.each<[string, unknown, RegExp]>([
    ["an unknown type", { type: "sms", events: ["job"], settings: {} }, /accounts\[0\]\.hooks\[0\]\.type/],
    ["no events", { type: "email", events: [], settings: { emails: "a@b.co" } }, /accounts\[0\]\.hooks\[0\]\.events/],
    [
      "settings of the type broken",
      { type: "web", events: ["job"], settings: { url: "nope" } },
      /accounts\[0\]\.hooks\[0\]\.settings\.url: must be an http or https URL/,
    ],
    ["a bad salt", { type: "email", events: ["job"], settings: { emails: "a@b.co" }, salt: "short" }, /hooks\[0\]\.salt: must be 64 lowercase hex characters/],
  ])("are refused with the JSON path: %s", (_, hook, message) => {
    expect(() => validateFixtures(fixtures([hook]))).toThrow(FixturesError);
    expect(() => validateFixtures(fixtures([hook]))).toThrow(message);
  });

  it("refuse a hook id used twice", () => {
    const hook = { id: 7, type: "email", events: ["job"], settings: { emails: "a@b.co" } };
    expect(() => validateFixtures(fixtures([hook, hook]))).toThrow(/hooks\[1\]\.id: duplicate hook id/);
  });
});

describe("hooks with --data", () => {
  it("outlive a restart and still deliver with their basic authentication", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "etl-hooks-"));
    dirs.push(dataDir);
    const receiver = await startReceiver();
    try {
      const first = await start([], dataDir);
      const settings = { ...VALID_SETTINGS.web, url: receiver.url };
      const hook = await readJson(await call(first, "/hooks", { method: "POST", body: { type: "web", events: ["job.completed"], settings } }));
      await first.close();
      // The service needs the secret to deliver after a restart: the data folder keeps it (documented).
      expect(readFileSync(join(dataDir, "state.json"), "utf8")).toContain(VALID_SETTINGS.web.basic_auth_data);

      const second = await start([], dataDir);
      expect((await readJson(await call(second, `/hooks/${hook.id}`))).salt).toBe(hook.salt);
      await runToCompletion(second);
      const request = await receiver.nth(1);
      expect(request.headers.authorization).toBe(`Basic ${VALID_SETTINGS.web.basic_auth_data}`);
      expect(isValidHookSignature(String(request.headers["x-hook-signature"]), hook.salt, request.body)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
