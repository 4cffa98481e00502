import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { HOOK_EVENTS, HOOK_TYPES } from "../../../contract/vocabularies";
import { call, expectError, startTestEmulator } from "../helpers";
import { expectNoSecret, hookCalls, VALID_SETTINGS } from "./helpers";

/** Creating hooks (facts, "Hooks"): every rule of the settings per type. */

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(() => emulator.close());

const { create, post } = hookCalls(() => emulator);

describe("POST /hooks", () => {
  it.each(HOOK_TYPES)("creates a %s hook: 201, active by default, a generated salt, secret settings never returned", async (type) => {
    const response = await post({ type, events: ["job.failed"], settings: VALID_SETTINGS[type] });
    expect(response.status).toBe(201);
    const text = await response.text();
    expectNoSecret(text);
    const hook = JSON.parse(text);
    expect(hook).toMatchObject({ type, active: true, events: ["job.failed"], url: `${emulator.url}/acme-data/api/hooks/${hook.id}` });
    expect(hook.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(hook).sort()).toEqual(["active", "created_at", "events", "id", "name", "salt", "settings", "type", "updated_at", "url"]);
    const got = await call(emulator, `/hooks/${hook.id}`);
    const gotText = await got.text();
    expectNoSecret(gotText);
    expect(JSON.parse(gotText)).toEqual(hook);
  });

  it.each([
    ["web", "https://example.com/hook"],
    ["slack", "data alerts"],
    ["email", "ops@example.com, dana@example.com"],
    ["hipchat", "1234"],
    ["pagerduty", "ETL"],
  ] as const)("names a %s hook from its settings when no name is given", async (type, name) => {
    expect((await create({ type, events: ["job"], settings: VALID_SETTINGS[type] })).name).toBe(name);
  });

  it("names a slack hook without team or channel by its address's host, never the secret address", async () => {
    const hook = await create({ type: "slack", events: ["job"], settings: { url: VALID_SETTINGS.slack.url } });
    expect(hook.name).toBe("hooks.slack.example");
  });

  it("shows the settings left out with their defaults, and keeps a given name, active and events (each once)", async () => {
    const hook = await create({
      type: "web",
      name: "ci",
      active: false,
      events: ["job.failed", "cluster", "job.failed"],
      settings: { url: "http://x.example/h" },
    });
    expect(hook).toMatchObject({ name: "ci", active: false, events: ["job.failed", "cluster"] });
    expect(hook.settings).toEqual({ url: "http://x.example/h", basic_auth: false, insecure_ssl: false });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["no type", { events: ["job"], settings: {} }, "type is required"],
    ["an unknown type", { type: "sms", events: ["job"], settings: {} }, "type must be one of web, slack, email, hipchat, pagerduty"],
    ["no events", { type: "email", settings: { emails: "a@b.co" } }, "events is required"],
    ["empty events", { type: "email", events: [], settings: { emails: "a@b.co" } }, "events must not be empty"],
    [
      "an unknown event",
      { type: "email", events: ["job", "schedule.fired"], settings: { emails: "a@b.co" } },
      `events[1] must be one of ${HOOK_EVENTS.map((e) => e.id).join(", ")}`,
    ],
    ["no settings", { type: "email", events: ["job"] }, "settings is required"],
    ["settings not an object", { type: "email", events: ["job"], settings: "a@b.co" }, "settings must be an object"],
    ["a blank name", { type: "email", events: ["job"], settings: { emails: "a@b.co" }, name: " " }, "name must not be blank"],
    ["active not a boolean", { type: "email", events: ["job"], settings: { emails: "a@b.co" }, active: "yes" }, "active must be a boolean"],
    ["an unknown field", { type: "email", events: ["job"], settings: { emails: "a@b.co" }, salt: "x" }, "salt is not a known field"],
    ["web: no url", { type: "web", events: ["job"], settings: {} }, "settings.url is required"],
    [
      "web: a url not http",
      { type: "web", events: ["job"], settings: { url: "ftp://x.example/" } },
      "settings.url must be an http or https URL without user information",
    ],
    [
      "web: user information in the url",
      { type: "web", events: ["job"], settings: { url: "https://u:p@x.example/" } },
      "settings.url must be an http or https URL without user information",
    ],
    [
      "web: basic_auth without data",
      { type: "web", events: ["job"], settings: { url: "https://x.example/", basic_auth: true } },
      "settings.basic_auth_data is required when basic_auth is true",
    ],
    [
      "web: basic_auth_data not user:password",
      { type: "web", events: ["job"], settings: { url: "https://x.example/", basic_auth_data: "bm9jb2xvbg==" } },
      "settings.basic_auth_data must be the base64 of user:password",
    ],
    [
      "web: insecure_ssl not a boolean",
      { type: "web", events: ["job"], settings: { url: "https://x.example/", insecure_ssl: 2 } },
      "settings.insecure_ssl must be a boolean",
    ],
    [
      "web: a setting of another type",
      { type: "web", events: ["job"], settings: { url: "https://x.example/", emails: "a@b.co" } },
      "settings.emails is not a known field",
    ],
    ["slack: no url", { type: "slack", events: ["job"], settings: { channel: "c" } }, "settings.url is required"],
    [
      "slack: channel not a string",
      { type: "slack", events: ["job"], settings: { url: "https://s.example/", channel: 5 } },
      "settings.channel must be a string",
    ],
    ["email: no emails", { type: "email", events: ["job"], settings: {} }, "settings.emails is required"],
    ["email: a list, not one string", { type: "email", events: ["job"], settings: { emails: ["a@b.co"] } }, "settings.emails must be a string"],
    [
      "email: a bad address",
      { type: "email", events: ["job"], settings: { emails: "a@b.co, nobody" } },
      "settings.emails must be a comma-separated list of email addresses",
    ],
    ["hipchat: no room and no token", { type: "hipchat", events: ["job"], settings: {} }, "settings.room is required; settings.auth_token is required"],
    ["hipchat: a blank token", { type: "hipchat", events: ["job"], settings: { room: "1", auth_token: " " } }, "settings.auth_token must not be blank"],
    ["pagerduty: no service_key", { type: "pagerduty", events: ["job"], settings: { pd_account: "a", service_name: "s" } }, "settings.service_key is required"],
    ["pagerduty: no pd_account", { type: "pagerduty", events: ["job"], settings: { service_name: "s", service_key: "k" } }, "settings.pd_account is required"],
    [
      "several problems at once",
      { type: "web", events: ["nope"], settings: {} },
      "must be one of job, job.submitted, job.started, job.stopped, job.completed, job.failed, cluster, cluster.requested, cluster.available, cluster.terminated, cluster.idled, cluster.error; settings.url is required",
    ],
  ])("answers 422 naming the field: %s", async (_, body, message) => {
    expect(await expectError(await post(body), 422)).toContain(message);
  });

  it("answers 400 to a body that is not an object", async () => {
    await expectError(await post([]), 400, "Request body must be a JSON object.");
  });
});
