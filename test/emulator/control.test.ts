import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { RequestLog, type RequestLogEntry } from "../../emulator/request-log";
import { ACCOUNT, call, DANA_KEY, ed25519Key, LEE_KEY, OTHER_KEY, startTestEmulator, readJson } from "./helpers";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(async () => {
  await emulator.close();
});

beforeEach(async () => {
  await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
});

async function requests(): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${emulator.url}/_emulator/requests`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json");
  return readJson(response);
}

describe("/_emulator/health", () => {
  it("answers ok without credentials or Accept header", async () => {
    const response = await fetch(`${emulator.url}/_emulator/health`);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ ok: true });
  });
});

describe("/_emulator/requests", () => {
  it("records every API request with method, path, query, status, user, fault and time", async () => {
    await call(emulator, "/user/keys?limit=5&offset=0");
    await call(emulator, "/user/keys", { key: null });
    await call(emulator, "/user/keys", { method: "POST", body: { public_key: ed25519Key("logged").line }, key: LEE_KEY });
    await fetch(`${emulator.url}/${ACCOUNT}/api/user/keys`);
    const log = await requests();
    expect(log).toEqual([
      { method: "GET", path: `/${ACCOUNT}/api/user/keys`, query: "limit=5&offset=0", status: 200, userId: 1, fault: null, time: expect.any(String) },
      { method: "GET", path: `/${ACCOUNT}/api/user/keys`, query: "", status: 401, userId: null, fault: null, time: expect.any(String) },
      { method: "POST", path: `/${ACCOUNT}/api/user/keys`, query: "", status: 201, userId: 2, fault: null, time: expect.any(String) },
      { method: "GET", path: `/${ACCOUNT}/api/user/keys`, query: "", status: 404, userId: null, fault: null, time: expect.any(String) },
    ]);
    for (const entry of log) expect(new Date(entry.time as string).toISOString()).toBe(entry.time);
  });

  it("does not record control requests", async () => {
    await fetch(`${emulator.url}/_emulator/health`);
    await fetch(`${emulator.url}/_emulator/state`);
    expect(await requests()).toEqual([]);
  });

  it("is emptied by DELETE", async () => {
    await call(emulator, "/user/keys");
    expect(await requests()).toHaveLength(1);
    const reset = await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
    expect(reset.status).toBe(200);
    expect(await requests()).toEqual([]);
  });
});

describe("RequestLog", () => {
  const entry = (n: number): RequestLogEntry => ({ method: "GET", path: `/${n}`, query: "", status: 200, userId: 1, fault: null, time: "" });

  it("keeps only the newest entries once full, oldest first", () => {
    const log = new RequestLog(3);
    for (let n = 1; n <= 7; n++) log.add(entry(n));
    expect(log.list().map((e) => e.path)).toEqual(["/5", "/6", "/7"]);
    log.clear();
    log.add(entry(8));
    expect(log.list().map((e) => e.path)).toEqual(["/8"]);
  });
});

describe("/_emulator/state", () => {
  it("dumps every record without API keys", async () => {
    const key = ed25519Key("state");
    const created = await readJson(await call(emulator, "/user/keys", { method: "POST", body: { public_key: key.line } }));
    const response = await fetch(`${emulator.url}/_emulator/state`);
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const secret of [DANA_KEY, LEE_KEY, OTHER_KEY]) expect(text).not.toContain(secret);
    expect(text).not.toContain("apiKey");
    const state = JSON.parse(text);
    expect(state.accounts.map((a: { uid: string }) => a.uid)).toEqual([ACCOUNT, "globex"]);
    expect(state.accounts[0].users).toEqual([
      { id: 1, name: "Dana Platform", email: "dana@example.com" },
      { id: 2, name: "Lee Analyst", email: "lee@example.com" },
    ]);
    expect(state.accounts[0].publicKeys).toContainEqual({
      id: created.id,
      userId: 1,
      name: "state",
      publicKey: key.line,
      fingerprint: key.fingerprint,
      comment: "state",
      createdAt: created.created_at,
      updatedAt: created.updated_at,
    });
  });
});

describe("unknown control paths", () => {
  it("answer 404, and wrong methods 405", async () => {
    const unknown = await fetch(`${emulator.url}/_emulator/nothing`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("application/json");
    const wrong = await fetch(`${emulator.url}/_emulator/state`, { method: "POST" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
  });
});
