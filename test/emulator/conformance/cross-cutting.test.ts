import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import {
  ACCEPT,
  ACCOUNT,
  basic,
  call,
  DANA_KEY,
  ed25519Key,
  expectError,
  LEE_KEY,
  OTHER_ACCOUNT,
  OTHER_KEY,
  readJson,
  startTestEmulator,
  testFixtures,
} from "../helpers";

/**
 * Rules every operation shares: the version header (spec section 9), authentication
 * (section 5), isolation between accounts, error bodies (sections 2.8 and 7), pagination
 * parameters and the credit allowance (section 8).
 */

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(async () => {
  await emulator.close();
});

/** An error answer: the given status, the API media type, and exactly `{message}`. */

function keysRequest(headers: Record<string, string>, account = ACCOUNT): Promise<Response> {
  return fetch(`${emulator.url}/${account}/api/user/keys`, { headers });
}

describe("the Accept header (spec section 9)", () => {
  const auth = { Authorization: basic(DANA_KEY) };

  it.each([
    ["missing", undefined],
    ["for version 1", "application/vnd.service+json; version=1"],
    ["without a version", "application/vnd.service+json"],
    ["in a comma-separated list", `${ACCEPT}, application/json`],
    ["with a comma for the semicolon", "application/vnd.service+json, version=2"],
    ["of another vendor", "application/vnd.other+json; version=2"],
    ["plain JSON", "application/json"],
    ["a wildcard", "*/*"],
    ["in another case", ACCEPT.toUpperCase()],
  ])("answers 404 with an Error body when %s", async (_, accept) => {
    const headers: Record<string, string> = accept === undefined ? auth : { ...auth, Accept: accept };
    const message = await expectError(await keysRequest(headers), 404);
    expect(message).toContain(ACCEPT);
  });

  it.each([
    ["exact", ACCEPT],
    ["without the space after the semicolon", "application/vnd.service+json;version=2"],
    ["without the semicolon", "application/vnd.service+json version=2"],
  ])("answers 200 when %s", async (_, accept) => {
    const response = await keysRequest({ ...auth, Accept: accept });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(ACCEPT);
  });
});

describe("authentication (spec section 5)", () => {
  const encode = (text: string): string => `Basic ${Buffer.from(text).toString("base64")}`;

  it.each<[string, Record<string, string>, string?]>([
    ["missing", {}],
    ["empty", { Authorization: "" }],
    ["the scheme alone", { Authorization: "Basic" }],
    ["not base64", { Authorization: "Basic !!!not-base64!!!" }],
    ["another scheme", { Authorization: `Bearer ${DANA_KEY}` }],
    ["a wrong key", { Authorization: basic("wrong-key") }],
    ["the key as the password", { Authorization: encode(`:${DANA_KEY}`) }],
    ["the key as both user and password", { Authorization: encode(`${DANA_KEY}:${DANA_KEY}`) }],
    ["the key alone, but for another account", { Authorization: encode(OTHER_KEY) }],
    ["another account's key on this account", { Authorization: basic(OTHER_KEY) }],
    ["this account's key on another account", { Authorization: basic(DANA_KEY) }, OTHER_ACCOUNT],
    ["a valid key on an unknown account", { Authorization: basic(DANA_KEY) }, "no-such-account"],
  ])("answers 401 with WWW-Authenticate and an Error body: %s", async (_, headers, account) => {
    const response = await keysRequest({ Accept: ACCEPT, ...headers }, account);
    expect(response.headers.get("www-authenticate")).toBe('Basic realm="etl"');
    expect(await expectError(response, 401)).toBe("Invalid or missing credentials.");
  });
});

describe("isolation between accounts", () => {
  let ownKey: { id: number };

  beforeAll(async () => {
    const response = await call(emulator, "/user/keys", { method: "POST", body: { public_key: ed25519Key("account-a").line } });
    ownKey = await readJson(response);
  });

  const asOther = { key: OTHER_KEY, account: OTHER_ACCOUNT };

  it("never lists another account's records", async () => {
    const listed = (await readJson(await call(emulator, "/user/keys?limit=100", asOther))) as { id: number }[];
    expect(listed.map((key) => key.id)).not.toContain(ownKey.id);
    const found = (await readJson(await call(emulator, `/user/keys/search?q=${ownKey.id}`, asOther))) as { id: number }[];
    expect(found).toEqual([]);
  });

  it("answers 404 for another account's record by id, for reads and deletes alike", async () => {
    expect(await expectError(await call(emulator, `/user/keys/${ownKey.id}`, asOther), 404)).toBe("Item not found.");
    expect(await expectError(await call(emulator, `/user/keys/${ownKey.id}`, { ...asOther, method: "DELETE" }), 404)).toBe("Item not found.");
    expect((await call(emulator, `/user/keys/${ownKey.id}`)).status).toBe(200);
  });

  it("does not open an account's records to a key of another account", async () => {
    await expectError(await call(emulator, `/user/keys/${ownKey.id}`, { key: OTHER_KEY }), 401);
  });

  it("keeps keys per user within one account", async () => {
    await expectError(await call(emulator, `/user/keys/${ownKey.id}`, { key: LEE_KEY }), 404);
  });
});

describe("malformed requests", () => {
  const post = (body: string | Uint8Array, contentType = "application/json"): Promise<Response> =>
    fetch(`${emulator.url}/${ACCOUNT}/api/user/keys`, {
      method: "POST",
      headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY), "Content-Type": contentType },
      body,
    });
  const get = (path: string, method = "GET"): Promise<Response> => call(emulator, path, { method });
  const validKey = (): string => ed25519Key("valid").line;

  it.each<[string, () => Promise<Response>, number]>([
    ["bad JSON", () => post('{"public_key": '), 400],
    ["an empty body", () => post(""), 400],
    ["a JSON array body", () => post(JSON.stringify([{ public_key: validKey() }])), 400],
    ["a JSON string body", () => post('"ssh-ed25519 AAAA"'), 400],
    ["a JSON null body", () => post("null"), 400],
    ["bytes that are not UTF-8", () => post(new Uint8Array([0xff, 0xfe, 0x7b, 0x7d])), 400],
    ["a text/plain body", () => post(JSON.stringify({ public_key: validKey() }), "text/plain"), 415],
    ["a form body", () => post("public_key=x", "application/x-www-form-urlencoded"), 415],
    ["a body over 1 MiB", () => post(JSON.stringify({ name: "x".repeat(1024 * 1024 + 1), public_key: validKey() })), 413],
    ["public_key of the wrong type", () => post(JSON.stringify({ public_key: 42 })), 422],
    ["name of the wrong type", () => post(JSON.stringify({ public_key: validKey(), name: ["x"] })), 422],
    ["public_key missing", () => post(JSON.stringify({ name: "x" })), 422],
    ["public_key not a key", () => post(JSON.stringify({ public_key: "hello world" })), 422],
    ["id 0", () => get("/user/keys/0"), 404],
    ["id -1", () => get("/user/keys/-1"), 404],
    ["id abc", () => get("/user/keys/abc"), 404],
    ["id 1e3", () => get("/user/keys/1e3"), 404],
    ["id 1.0", () => get("/user/keys/1.0"), 404],
    ["a very long id", () => get(`/user/keys/${"9".repeat(400)}`), 404],
    ["a bad percent-encoding in the id", () => get("/user/keys/%ZZ"), 404],
    ["deleting id abc", () => get("/user/keys/abc", "DELETE"), 404],
    ["offset -1", () => get("/user/keys?offset=-1"), 400],
    ["offset abc", () => get("/user/keys?offset=abc"), 400],
    ["limit 0", () => get("/user/keys?limit=0"), 400],
    ["limit 101", () => get("/user/keys?limit=101"), 400],
    ["limit abc", () => get("/user/keys?limit=abc"), 400],
    ["limit 1.5", () => get("/user/keys?limit=1.5"), 400],
    ["an unknown sort", () => get("/user/keys?sort=size"), 400],
    ["search without q", () => get("/user/keys/search"), 400],
    ["an unknown path", () => get("/no/such/resource"), 404],
    ["a path below a record", () => get("/user/keys/1/extra"), 404],
    ["an unsupported method", () => get("/user/keys", "PATCH"), 405],
  ])("answers %s with a 4xx Error body, never 500", async (_, send, status) => {
    await expectError(await send(), status);
  });
});

describe("pagination parameters", () => {
  // The spec gives the bounds (section 8) but not the answer to values outside them; the
  // emulator answers 400, the status of an invalid request (section 7), naming the parameter.
  it.each([
    ["offset=-1", "offset"],
    ["offset=1.5", "offset"],
    ["offset=", "offset"],
    ["limit=-1", "limit"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["limit=1e1", "limit"],
  ])("answer 400 naming the parameter for %s", async (query, parameter) => {
    for (const path of ["/user/keys", "/user/keys/search?q=a&"]) {
      const separator = path.includes("?") ? "" : "?";
      const message = await expectError(await call(emulator, `${path}${separator}${query}`), 400);
      expect(message.startsWith(`${parameter} `)).toBe(true);
    }
  });
});

describe("the credit allowance (spec section 8)", () => {
  let limited: RunningEmulator;

  beforeAll(async () => {
    limited = await startEmulator({ fixtures: testFixtures(), creditsPerHour: 5 });
  });

  afterAll(async () => {
    await limited.close();
  });

  it("lets 5 calls through counting down, refuses the 6th with 429, and leaves other users alone", async () => {
    for (const remaining of ["4", "3", "2", "1", "0"]) {
      const response = await call(limited, "/user/keys");
      expect(response.status).toBe(200);
      expect(response.headers.get("x-ratelimit-limit")).toBe("5");
      expect(response.headers.get("x-ratelimit-remaining")).toBe(remaining);
    }
    const refused = await call(limited, "/user/keys");
    expect(await expectError(refused, 429)).toMatch(/^Rate Limit Exceeded: the hourly allowance of 5 credits is used up; it renews in \d+ seconds\.$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");

    const other = await call(limited, "/user/keys", { key: LEE_KEY });
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("4");
  });
});
