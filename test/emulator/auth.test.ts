import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { ACCEPT, ACCOUNT, basic, call, DANA_KEY, OTHER_ACCOUNT, OTHER_KEY, startTestEmulator, readJson } from "./helpers";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(async () => {
  await emulator.close();
});

async function expectUnauthorized(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toBe('Basic realm="etl"');
  expect(await readJson(response)).toEqual({ message: "Invalid or missing credentials." });
}

describe("authentication", () => {
  it("accepts the API key as the Basic username with an empty password", async () => {
    const response = await call(emulator, "/user/keys");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(ACCEPT);
  });

  it("answers 401 without credentials", async () => {
    await expectUnauthorized(await call(emulator, "/user/keys", { key: null }));
  });

  it("answers 401 for an unknown key", async () => {
    await expectUnauthorized(await call(emulator, "/user/keys", { key: "not-a-key" }));
  });

  it("answers 401 when the key is sent as the password instead of the username", async () => {
    const authorization = `Basic ${Buffer.from(`:${DANA_KEY}`).toString("base64")}`;
    await expectUnauthorized(await call(emulator, "/user/keys", { headers: { Authorization: authorization } }));
  });

  it("accepts the key alone, without the colon of the empty password, as some clients send it", async () => {
    const authorization = `Basic ${Buffer.from(DANA_KEY).toString("base64")}`;
    expect((await call(emulator, "/user/keys", { headers: { Authorization: authorization } })).status).toBe(200);
  });

  it("answers 401 for a key with a password after it", async () => {
    const authorization = `Basic ${Buffer.from(`${DANA_KEY}:secret`).toString("base64")}`;
    await expectUnauthorized(await call(emulator, "/user/keys", { headers: { Authorization: authorization } }));
  });

  it("answers 401 for schemes other than Basic", async () => {
    await expectUnauthorized(await call(emulator, "/user/keys", { headers: { Authorization: `Bearer ${DANA_KEY}` } }));
  });

  it("accepts the scheme name in any case", async () => {
    const authorization = basic(DANA_KEY).replace("Basic", "basic");
    const response = await call(emulator, "/user/keys", { headers: { Authorization: authorization } });
    expect(response.status).toBe(200);
  });

  it("answers 401, never data, for a valid key of another account", async () => {
    await expectUnauthorized(await call(emulator, "/user/keys", { key: OTHER_KEY, account: ACCOUNT }));
    await expectUnauthorized(await call(emulator, "/user/keys", { key: DANA_KEY, account: OTHER_ACCOUNT }));
  });

  it("answers 401 for an unknown account, even to a valid key", async () => {
    await expectUnauthorized(await call(emulator, "/user/keys", { account: "no-such-account" }));
  });

  it("checks credentials before routing, so unknown paths do not leak", async () => {
    await expectUnauthorized(await call(emulator, "/no/such/path", { key: null }));
  });
});

describe("the version Accept header", () => {
  const message = `Not found: requests must send Accept: ${ACCEPT}`;

  async function expectNotFound(accept: string | undefined): Promise<void> {
    const headers: Record<string, string> = { Authorization: basic(DANA_KEY) };
    if (accept !== undefined) headers.Accept = accept;
    const response = await fetch(`${emulator.url}/${ACCOUNT}/api/user/keys`, { headers });
    expect(response.status).toBe(404);
    expect(await readJson(response)).toEqual({ message });
  }

  it("answers 404 without it", async () => {
    await expectNotFound(undefined);
    await expectNotFound("*/*");
    await expectNotFound("application/json");
  });

  it("answers 404 to another version, a comma, or no version", async () => {
    await expectNotFound("application/vnd.service+json; version=1");
    await expectNotFound("application/vnd.service+json version=3");
    await expectNotFound("application/vnd.service+json, version=2");
    await expectNotFound("application/vnd.service+json");
    await expectNotFound("application/vnd.other+json; version=2");
  });

  it("accepts the version after a semicolon with or without a space, or after a space alone", async () => {
    for (const accept of ["application/vnd.service+json;version=2", "application/vnd.service+json version=2", "application/vnd.service+json ;  version=2"]) {
      const response = await fetch(`${emulator.url}/${ACCOUNT}/api/user/keys`, { headers: { Authorization: basic(DANA_KEY), Accept: accept } });
      expect(response.status, accept).toBe(200);
    }
  });

  it("is checked before credentials", async () => {
    const response = await fetch(`${emulator.url}/${ACCOUNT}/api/user/keys`);
    expect(response.status).toBe(404);
  });
});

describe("routing", () => {
  it("answers 404 Item not found. for unknown paths", async () => {
    for (const path of ["/no/such/thing", "", "/user/keys/", "/user"]) {
      const response = await call(emulator, path);
      expect(response.status, path).toBe(404);
      expect(await readJson(response)).toEqual({ message: "Item not found." });
    }
  });

  it("answers 404 outside the API space", async () => {
    const response = await fetch(`${emulator.url}/`, { headers: { Accept: ACCEPT } });
    expect(response.status).toBe(404);
    expect(await readJson(response)).toEqual({ message: "Item not found." });
  });

  it("answers 405 with Allow for a wrong method on a known path", async () => {
    const response = await call(emulator, "/user/keys", { method: "PUT" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST");
    expect((await readJson(response)).message).toMatch(/PUT is not allowed/);
  });
});
