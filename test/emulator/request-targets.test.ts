import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { ACCEPT, ACCOUNT, basic, DANA_KEY, readJson, startTestEmulator } from "./helpers";
import { rawRequest, sendRaw, type RawResponse } from "./raw-http";

/** Targets and request lines that a URL parser would reject, or resolve into another path. */

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(async () => {
  await emulator.close();
});

const DOT_SEGMENTS = 'Bad request: the request path must not contain "." or ".." segments.';

function get(target: string): Promise<RawResponse> {
  return rawRequest(emulator.url, "GET", target, { Accept: ACCEPT, Authorization: basic(DANA_KEY) });
}

function expectJsonError(response: RawResponse, status: number, message: string): void {
  expect(response.status).toBe(status);
  expect(response.headers["content-type"]).toBe(ACCEPT);
  expect(JSON.parse(response.body)).toEqual({ message });
}

async function requestLogLength(): Promise<number> {
  return (await readJson(await fetch(`${emulator.url}/_emulator/requests`))).length;
}

describe("malformed request targets", () => {
  it.each(["http://[", `http://[/${ACCOUNT}/api/user/keys`, "http://exa%mple/", "http://:80/", "http://host:99999/_emulator/state"])(
    "%s answers 400 with a JSON message",
    async (target) => {
      expectJsonError(await get(target), 400, "Bad request: the request target is not a valid URL.");
    },
  );

  it("keeps serving after one", async () => {
    await get("http://[");
    expect((await fetch(`${emulator.url}/_emulator/health`)).status).toBe(200);
  });

  it("serves absolute-form targets by their path", async () => {
    const response = await get(`http://elsewhere.example/${ACCOUNT}/api/user/keys`);
    expect(response.status).toBe(200);
  });
});

describe("requests the HTTP parser cannot read", () => {
  it("answer 400 with a JSON message", async () => {
    const response = await sendRaw(emulator.url, "GET /a\tb HTTP/1.1\r\nHost: x\r\n\r\n");
    expectJsonError(response, 400, "Bad request: the request is not valid HTTP/1.1.");
  });

  it("answer 431 when the headers are too large", async () => {
    const response = await sendRaw(emulator.url, `GET /_emulator/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(64 * 1024)}\r\n\r\n`);
    expectJsonError(response, 431, "Request header fields are too large.");
  });
});

describe("dot segments", () => {
  it.each([
    `/${ACCOUNT}/api/../../_emulator/state`,
    `/${ACCOUNT}/api/%2e%2e/%2E%2E/_emulator/state`,
    `/${ACCOUNT}/api/.%2e/%2e./_emulator/state`,
    `/${ACCOUNT}/api/..\\..\\_emulator/state`,
    `/${ACCOUNT}/api/%2e%2e\\%2e%2e\\_emulator/state`,
    "/x/../_emulator/state?q=1",
    "/_emulator/./state",
    "/_emulator/state/..",
    `http://elsewhere.example/${ACCOUNT}/api/../../_emulator/state`,
  ])("%s answers 400 and never reaches a control endpoint", async (target) => {
    const response = await get(target);
    expectJsonError(response, 400, DOT_SEGMENTS);
    expect(response.body).not.toContain("accounts");
  });

  it("are refused in the API space before authentication, routing and the request log", async () => {
    const before = await requestLogLength();
    expectJsonError(await get(`/${ACCOUNT}/api/user/keys/../keys`), 400, DOT_SEGMENTS);
    expectJsonError(await rawRequest(emulator.url, "GET", `/${ACCOUNT}/api/./user/keys`), 400, DOT_SEGMENTS);
    expect(await requestLogLength()).toBe(before);
  });

  it("leave other dots and encodings alone", async () => {
    expect((await get(`/${ACCOUNT}/api/user/keys?q=../..`)).status).toBe(200);
    expect((await get(`/${ACCOUNT}/api/user/keys/...`)).status).toBe(404);
    expect((await get(`/${ACCOUNT}/api/..%2f..%2f_emulator/state`)).status).toBe(404);
    const encoded = await get("/%5femulator/state");
    expect(encoded.status).toBe(404);
    expect(encoded.body).not.toContain("accounts");
  });
});
