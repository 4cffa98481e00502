import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { ACCEPT, ACCOUNT, basic, DANA_KEY, ed25519Key, startTestEmulator, readJson } from "./helpers";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(async () => {
  await emulator.close();
});

function post(body: string, contentType: string | undefined): Promise<Response> {
  const headers: Record<string, string> = { Accept: ACCEPT, Authorization: basic(DANA_KEY) };
  if (contentType !== undefined) headers["Content-Type"] = contentType;
  return fetch(`${emulator.url}/${ACCOUNT}/api/user/keys`, { method: "POST", headers, body });
}

/** `{"public_key": [[…]]}` with arrays and objects nesting `levels` deep in all. */
function nested(levels: number): string {
  return `{"public_key":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`;
}

const TOO_DEEP = "Request body is nested too deeply: arrays and objects may nest at most 64 levels.";

describe("request bodies", () => {
  it("answers 400 to malformed JSON", async () => {
    const response = await post('{"public_key": ', "application/json");
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({ message: "Request body is not valid JSON." });
  });

  it("answers 400 to an empty body", async () => {
    const response = await post("", "application/json");
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({ message: "Request body is not valid JSON." });
  });

  it.each([["text/plain"], ["application/x-www-form-urlencoded"], [undefined]])("answers 415 to Content-Type %s", async (type) => {
    const response = await post(JSON.stringify({ public_key: ed25519Key("x").line }), type);
    expect(response.status).toBe(415);
    expect((await readJson(response)).message).toMatch(/Content-Type: application\/json/);
  });

  it("accepts a UTF-8 charset parameter but no other charset", async () => {
    const ok = await post(JSON.stringify({ public_key: ed25519Key("utf8").line }), "application/json; charset=utf-8");
    expect(ok.status).toBe(201);
    const latin = await post(JSON.stringify({ public_key: ed25519Key("latin").line }), "application/json; charset=iso-8859-1");
    expect(latin.status).toBe(415);
    expect((await readJson(latin)).message).toMatch(/charset must be utf-8/);
  });

  it.each([65, 100_000])("answers 400 naming the depth rule to a body nested %i levels", async (levels) => {
    const response = await post(nested(levels), "application/json");
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({ message: TOO_DEEP });
  });

  it("reads a body nested 64 levels, and counts no brackets inside strings", async () => {
    const deepest = await post(nested(64), "application/json");
    expect(deepest.status).toBe(422);
    const quoted = await post(JSON.stringify({ public_key: ed25519Key("brackets").line, name: `${"[{".repeat(100)}\\"` }), "application/json");
    expect(quoted.status).toBe(201);
  });

  it("answers 413 to a body over 1 MiB and keeps serving", async () => {
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024), public_key: ed25519Key("big").line });
    const response = await post(big, "application/json");
    expect(response.status).toBe(413);
    expect((await readJson(response)).message).toMatch(/too large/);
    const health = await fetch(`${emulator.url}/_emulator/health`);
    expect(health.status).toBe(200);
  });

  it("answers 413 to a chunked body over 1 MiB", async () => {
    const chunk = new Uint8Array(256 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await fetch(`${emulator.url}/${ACCOUNT}/api/user/keys`, {
      method: "POST",
      headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY), "Content-Type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });
});
