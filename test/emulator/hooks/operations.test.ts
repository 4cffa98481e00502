import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { HOOK_EVENTS, HOOK_TYPES } from "../../../contract/vocabularies";
import { ACCEPT, basic, call, control, DANA_KEY, expectError, LEE_KEY, OTHER_ACCOUNT, OTHER_KEY, readJson, startTestEmulator } from "../helpers";
import { expectNoSecret, hookCalls, VALID_SETTINGS } from "./helpers";

/** Hooks once made (facts, "Hooks"): listing and search, changes, deletion, salts, the catalogues and isolation. */

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(() => emulator.close());

const { create } = hookCalls(() => emulator);

describe("GET /hooks and /hooks/search", () => {
  let ids: Record<string, number>;

  beforeAll(async () => {
    ids = {};
    for (const [type, name] of [
      ["web", "alpha nightly"],
      ["email", "beta mail"],
      ["slack", "gamma chat"],
    ] as const) {
      ids[type] = (await create({ type, name, events: ["job"], settings: VALID_SETTINGS[type] })).id;
    }
  });

  async function listed(path: string): Promise<number[]> {
    const response = await call(emulator, path);
    expect(response.status).toBe(200);
    return ((await readJson(response)) as { id: number }[]).map((hook) => hook.id);
  }

  it("lists newest first, filters by a comma list of types, and takes sort and direction", async () => {
    const all = await listed("/hooks?limit=100");
    expect(all).toEqual([...all].sort((a, b) => b - a));
    const some = await listed("/hooks?type=web,email&limit=100");
    expect(some).toContain(ids.web);
    expect(some).toContain(ids.email);
    expect(some).not.toContain(ids.slack);
    const byName = (await readJson(await call(emulator, "/hooks?sort=name&direction=asc&limit=100"))) as { name: string }[];
    expect(byName.map((hook) => hook.name)).toEqual(byName.map((hook) => hook.name).sort());
  });

  it("keeps hooks updated since a time, and pages with a Link header", async () => {
    expect(await listed(`/hooks?since=${encodeURIComponent("2999-01-01T00:00:00Z")}`)).toEqual([]);
    const page = await call(emulator, "/hooks?limit=1");
    expect(page.headers.get("link")).toContain('rel="next"');
  });

  it("answers 400 naming a bad type filter", async () => {
    await expectError(await call(emulator, "/hooks?type=web,sms"), 400, "type must be a comma-separated list of web, slack, email, hipchat, pagerduty");
  });

  it("searches by free text, name, type and id, with negation; same attribute OR'd, different AND'd", async () => {
    expect(await listed("/hooks/search?q=nightly")).toEqual([ids.web]);
    expect(await listed(`/hooks/search?q=${encodeURIComponent('name:"beta mail"')}`)).toEqual([ids.email]);
    expect(await listed("/hooks/search?q=type:web%20type:slack%20-name:gamma")).toContain(ids.web);
    expect(await listed("/hooks/search?q=type:web%20type:slack%20-name:gamma")).not.toContain(ids.slack);
    expect(await listed(`/hooks/search?q=id:${ids.email}%20type:web`)).toEqual([]);
    expect(await listed(`/hooks/search?q=id:${ids.email}&sort=name`)).toEqual([ids.email]);
  });

  it("answers 400 to a search without q or naming an unknown attribute", async () => {
    await expectError(await call(emulator, "/hooks/search"), 400, "q is required");
    await expectError(
      await call(emulator, "/hooks/search?q=colour:red"),
      400,
      /^q: colour is not a searchable attribute; expected one of id, name, type, created, updated$/,
    );
  });

  it("searches by creation and update time, compared or by how the time begins", async () => {
    const day = ((await readJson(await call(emulator, `/hooks/${ids.email}`))).created_at as string).slice(0, 10);
    expect(await listed(`/hooks/search?q=created:${day}%20id:${ids.email}`)).toEqual([ids.email]);
    expect(await listed(`/hooks/search?q=created:1999%20id:${ids.email}`)).toEqual([]);
    expect(await listed(`/hooks/search?q=updated:%3E2000-01-01%20id:${ids.web}`)).toEqual([ids.web]);
    expect(await listed("/hooks/search?q=created:%3C2000-01-01")).toEqual([]);
    await expectError(await call(emulator, "/hooks/search?q=updated:%3Esoon"), 400, /^q: updated:>soon needs a date/);
  });
});

describe("PUT /hooks/{id}", () => {
  it("replaces events and settings, keeps secret settings left out, and refuses a change of type", async () => {
    const hook = await create({ type: "web", events: ["job", "cluster"], settings: VALID_SETTINGS.web });
    const put = (body: unknown) => call(emulator, `/hooks/${hook.id}`, { method: "PUT", body });
    const changed = await readJson(await put({ events: ["job.failed"], settings: { url: "https://example.com/new", basic_auth: true } }));
    expect(changed).toMatchObject({ events: ["job.failed"], name: "https://example.com/new", salt: hook.salt });
    expect(changed.settings).toEqual({ url: "https://example.com/new", basic_auth: true, insecure_ssl: false });
    const toggled = await readJson(await put({ active: false }));
    expect(toggled).toMatchObject({ active: false, events: ["job.failed"], settings: changed.settings });
    await expectError(await put({ type: "email" }), 422, "type cannot be changed (it is web)");
    expect((await put({ type: "web", name: "kept" })).status).toBe(200);
    expect((await readJson(await put({ settings: { url: "https://example.com/other" } }))).name).toBe("kept");
    await expectError(await put({ events: [] }), 422, "events must not be empty");
    await expectError(await put({ settings: { url: "https://example.com", colour: 1 } }), 422, "settings.colour is not a known field");
  });

  it("answers 404 for an unknown hook and another account's", async () => {
    await expectError(await call(emulator, "/hooks/999999", { method: "PUT", body: { active: true } }), 404, "Item not found.");
  });
});

describe("DELETE, reset_salt and the catalogues", () => {
  it("deletes with 200 and the deleted hook, then 404", async () => {
    const hook = await create({ type: "email", events: ["job"], settings: VALID_SETTINGS.email });
    expect(await readJson(await call(emulator, `/hooks/${hook.id}`, { method: "DELETE" }))).toEqual(hook);
    await expectError(await call(emulator, `/hooks/${hook.id}`), 404);
  });

  it("resets the salt: a new one, returned alone and by get", async () => {
    const hook = await create({ type: "email", events: ["job"], settings: VALID_SETTINGS.email });
    const reset = await readJson(await call(emulator, `/hooks/${hook.id}/reset_salt`, { method: "PUT" }));
    expect(Object.keys(reset)).toEqual(["salt"]);
    expect(reset.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(reset.salt).not.toBe(hook.salt);
    expect((await readJson(await call(emulator, `/hooks/${hook.id}`))).salt).toBe(reset.salt);
    await expectError(await call(emulator, `/hooks/${hook.id}/reset_salt`, { method: "PUT", body: { salt: "mine" } }), 422, "salt is not a known field");
  });

  it("lists the hook types with their groups", async () => {
    const types = await readJson(await call(emulator, "/hooks/types"));
    expect(types.map((entry: { type: string }) => entry.type)).toEqual([...HOOK_TYPES]);
    expect(types.find((entry: { type: string }) => entry.type === "email").groups).toEqual([{ group_type: "email", group_name: "Email" }]);
    expect(types.find((entry: { type: string }) => entry.type === "hipchat").groups[0].group_type).toBe("chat");
  });

  it("serves the event catalogue at the host root, to any valid key, with the API's checks", async () => {
    const events = (headers: Record<string, string>) => fetch(`${emulator.url}/hook_events`, { headers });
    const response = await events({ Accept: ACCEPT, Authorization: basic(OTHER_KEY) });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual(HOOK_EVENTS);
    await expectError(await events({ Accept: ACCEPT }), 401);
    await expectError(await events({ Authorization: basic(DANA_KEY) }), 404);
    await expectError(await call(emulator, "/hook_events"), 404);
  });
});

describe("secrets and accounts", () => {
  it("keeps hooks per account: another account neither lists, finds, changes nor deletes them", async () => {
    const hook = await create({ type: "email", name: "isolated-hook", events: ["job"], settings: VALID_SETTINGS.email });
    const asOther = { key: OTHER_KEY, account: OTHER_ACCOUNT };
    expect(await readJson(await call(emulator, "/hooks?limit=100", asOther))).toEqual([]);
    expect(await readJson(await call(emulator, "/hooks/search?q=isolated", asOther))).toEqual([]);
    for (const [method, path] of [
      ["GET", ""],
      ["PUT", ""],
      ["DELETE", ""],
      ["GET", "/ping"],
      ["PUT", "/reset_salt"],
    ]) {
      const body = method === "PUT" && path === "" ? { active: false } : undefined;
      await expectError(await call(emulator, `/hooks/${hook.id}${path}`, { ...asOther, method, body }), 404);
    }
    expect((await call(emulator, `/hooks/${hook.id}`, { key: LEE_KEY })).status).toBe(200);
  });

  it("never shows secret settings in /_emulator/state", async () => {
    await create({ type: "web", events: ["job"], settings: VALID_SETTINGS.web });
    await create({ type: "pagerduty", events: ["job"], settings: VALID_SETTINGS.pagerduty });
    const text = await (await control(emulator, "/state")).text();
    expect(JSON.parse(text).accounts[0].hooks.length).toBeGreaterThan(0);
    expectNoSecret(text);
  });
});
