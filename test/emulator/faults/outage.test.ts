import { once } from "node:events";
import { Agent, get } from "node:http";
import { connect } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator, type StartEmulatorOptions } from "../../../emulator";
import { call, closedAfterEach, control, createKey, DANA_KEY, readJson, testFixtures } from "../helpers";

/** The service going away and coming back: refused connections meanwhile, nothing lost. */

const closeLater = closedAfterEach();
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  return closeLater(await startEmulator({ fixtures: testFixtures(), ...options }));
}

/** The error code a request fails with, or its status when it gets an answer. */
async function outcome(url: string): Promise<string | number> {
  try {
    return (await fetch(url)).status;
  } catch (error) {
    return ((error as { cause?: { code?: string } }).cause?.code ?? String(error)) as string;
  }
}

function health(emulator: RunningEmulator): Promise<string | number> {
  return outcome(`${emulator.url}/_emulator/health`);
}

function postOutage(emulator: RunningEmulator, body: unknown): Promise<Response> {
  return control(emulator, "/outage", "POST", body);
}

/** Waits until the service answers `health` with `expected`, polling rather than guessing a delay. */
async function healthBecomes(emulator: RunningEmulator, expected: string | number): Promise<void> {
  await vi.waitFor(async () => expect(await health(emulator)).toBe(expected), { timeout: 10_000, interval: 20 });
}

/**
 * Starts an outage of `ms` and checks that `end` cancels the one timer that would have ended it
 * (its delay within a second of `ms`), instead of waiting for that time to pass.
 */
async function expectOutageEndCancelled(emulator: RunningEmulator, ms: number, end: () => Promise<void>): Promise<void> {
  const scheduled = vi.spyOn(globalThis, "setTimeout");
  const cancelled = vi.spyOn(globalThis, "clearTimeout");
  try {
    await emulator.outage(ms);
    const returns = scheduled.mock.calls.flatMap(([, delay], index) => (Number(delay) > ms - 1000 ? [scheduled.mock.results[index]!.value] : []));
    expect(returns).toHaveLength(1);
    await end();
    expect(cancelled).toHaveBeenCalledWith(returns[0]);
  } finally {
    vi.restoreAllMocks();
  }
}

function namedKey(emulator: RunningEmulator, name: string): Promise<{ id: number }> {
  return createKey(emulator, DANA_KEY, undefined, name);
}

describe("POST /_emulator/outage", () => {
  it("answers 202 first, refuses connections for the given seconds, then serves the same state", async () => {
    // At speed 20 a new cluster is available after 1.05 s, inside the outage, and idle after 4.05 s.
    const emulator = await start({ speed: 20 });
    const key = await namedKey(emulator, "before the outage");
    const cluster = await readJson(await call(emulator, "/clusters", { method: "POST", body: { nodes: 1, name: "outage" } }));
    expect(cluster.status).toBe("pending");

    const asked = Date.now();
    const response = await postOutage(emulator, { seconds: 1.5 });
    const answered = Date.now();
    expect(response.status).toBe(202);
    const body = await readJson(response);
    expect(body).toEqual({ seconds: 1.5, until: expect.any(String) });
    // 1.5 s from when the service took the request, which was between the asking and the answer.
    expect(Date.parse(body.until)).toBeGreaterThanOrEqual(asked + 1500);
    expect(Date.parse(body.until)).toBeLessThanOrEqual(answered + 1500);

    await healthBecomes(emulator, "ECONNREFUSED");
    expect(await outcome(`${emulator.url}/acme-data/api/user/keys`)).toBe("ECONNREFUSED");

    await healthBecomes(emulator, 200);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(body.until));
    expect((await call(emulator, `/user/keys/${key.id}`)).status).toBe(200);
    const after = await readJson(await call(emulator, `/clusters/${cluster.id}`));
    expect(after.status).toBe("available");
    expect(Date.parse(after.available_since)).toBeGreaterThan(asked);
    expect(Date.parse(after.available_since)).toBeLessThan(Date.parse(body.until));
  });

  it("closes open keep-alive connections", async () => {
    const emulator = await start();
    const agent = new Agent({ keepAlive: true });
    try {
      // Wrapped: resolving with the promise itself would wait for it.
      const { socketClosed } = await new Promise<{ socketClosed: Promise<void> }>((resolve, reject) => {
        get(`${emulator.url}/_emulator/health`, { agent }, (res) => {
          const socketClosed = new Promise<void>((done) => res.socket.once("close", () => done()));
          res.resume();
          res.on("end", () => resolve({ socketClosed }));
        }).on("error", reject);
      });
      expect(agent.freeSockets).not.toEqual({});
      // The answer's body is left unread: the outage must not wait for the client. The socket
      // closes while the minute's outage still runs, long before the test's timeout.
      expect((await postOutage(emulator, { seconds: 60 })).status).toBe(202);
      await socketClosed;
      expect(await health(emulator)).toBe("ECONNREFUSED");
    } finally {
      agent.destroy();
    }
  });

  it.each([
    [{}, "seconds is required"],
    [{ seconds: 0 }, "seconds must be a number greater than 0 and at most 3600"],
    [{ seconds: -1 }, "seconds must be a number greater than 0 and at most 3600"],
    [{ seconds: 3601 }, "seconds must be a number greater than 0 and at most 3600"],
    [{ seconds: "5" }, "seconds must be a number greater than 0 and at most 3600"],
    [{ seconds: null }, "seconds must be a number greater than 0 and at most 3600"],
    [{ seconds: 5, until: 1 }, "until is not an outage setting; expected seconds"],
    [[5], "the body must be a JSON object"],
  ])("answers 400 naming the field for %j and stays up", async (body, message) => {
    const emulator = await start();
    const response = await postOutage(emulator, body);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await readJson(response)).toEqual({ message });
    expect(await health(emulator)).toBe(200);
  });

  it("answers 405 to other methods", async () => {
    const emulator = await start();
    const response = await fetch(`${emulator.url}/_emulator/outage`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("suspend, resume and outage", () => {
  it("suspend refuses connections and resume serves again on the same URL, both idempotent", async () => {
    const emulator = await start();
    await namedKey(emulator, "kept");
    await emulator.suspend();
    await emulator.suspend();
    expect(await health(emulator)).toBe("ECONNREFUSED");
    await emulator.resume();
    await emulator.resume();
    expect(await health(emulator)).toBe(200);
    const keys = await readJson(await call(emulator, "/user/keys"));
    expect(keys.map((key: { name: string }) => key.name)).toEqual(["kept"]);
  });

  it("closes connections with a request under way, not waiting for it", async () => {
    const emulator = await start();
    const { hostname, port } = new URL(emulator.url);
    const socket = connect(Number(port), hostname);
    await once(socket, "connect");
    socket.write("GET /_emulator/health HTTP/1.1\r\nHost: x\r\n");
    // Closed with unread bytes, the connection may come down as a reset: that is closed too.
    socket.on("error", () => undefined);
    const closed = new Promise((resolve) => socket.once("close", resolve));
    // Suspended without end: only the service closing the connection ends the wait.
    await emulator.suspend();
    await closed;
    expect(socket.destroyed).toBe(true);
  });

  it("outage resolves once suspended and resumes by itself", async () => {
    const emulator = await start();
    const began = Date.now();
    await emulator.outage(300);
    expect(await health(emulator)).toBe("ECONNREFUSED");
    await healthBecomes(emulator, 200);
    expect(Date.now() - began).toBeGreaterThanOrEqual(300);
  });

  it("resume ends an outage early, and suspend cancels its scheduled end", async () => {
    const emulator = await start();
    await emulator.outage(60_000);
    await emulator.resume();
    expect(await health(emulator)).toBe(200);
    await expectOutageEndCancelled(emulator, 200_000, () => emulator.suspend());
    expect(await health(emulator)).toBe("ECONNREFUSED");
  });

  it("rejects an outage of a negative or infinite length", async () => {
    const emulator = await start();
    await expect(emulator.outage(-1)).rejects.toThrow(RangeError);
    await expect(emulator.outage(Number.POSITIVE_INFINITY)).rejects.toThrow(RangeError);
    expect(await health(emulator)).toBe(200);
  });

  it("close during an outage works and cancels the scheduled return", async () => {
    const emulator = await start();
    await expectOutageEndCancelled(emulator, 3_600_000, () => emulator.close());
    await emulator.resume();
    expect(await health(emulator)).toBe("ECONNREFUSED");
  });

  it("keeps saving to dataDir across an outage", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "etl-outage-"));
    dirs.push(dataDir);
    const emulator = await start({ dataDir });
    const before = await namedKey(emulator, "before");
    await emulator.outage(200);
    await healthBecomes(emulator, 200);
    const after = await namedKey(emulator, "after");
    const saved = JSON.parse(readFileSync(join(dataDir, "state.json"), "utf8"));
    expect(saved.tables.publicKeys.map((row: { id: number }) => row.id)).toEqual([before.id, after.id]);
    await emulator.close();

    const restarted = await start({ dataDir });
    expect(restarted.restored).toBe(true);
    expect((await call(restarted, `/user/keys/${after.id}`)).status).toBe(200);
  });
});
