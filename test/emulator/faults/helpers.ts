/**
 * The emulator the fault tests configure through /_emulator/faults: saved to a folder of
 * its own, faults off and the request log empty after each test, and requests on a connection
 * of their own so a dropped one shows.
 */
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ACCEPT, ACCOUNT, basic, control as controlRequest, DANA_KEY, readJson, testFixtures } from "../helpers";

export type RawResult = { status: number; headers: Record<string, unknown>; body: string } | { error: string };

export interface FaultsService {
  readonly emulator: RunningEmulator;
  /** Where the service saves its state. */
  readonly dataDir: string;
  control(method: string, body?: unknown): Promise<Response>;
  configure(body: Record<string, unknown>): Promise<void>;
  requestLog(): Promise<any[]>;
  publicKeyIds(): Promise<number[]>;
  /** One request on its own connection, so a dropped connection shows as an error, not a retry. */
  raw(method: string, path: string, body?: unknown): Promise<RawResult>;
}

function rawOn(emulator: RunningEmulator, method: string, path: string, body?: unknown): Promise<RawResult> {
  const { hostname, port } = new URL(emulator.url);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { Accept: ACCEPT, Authorization: basic(DANA_KEY) };
  if (text !== undefined) headers["Content-Type"] = "application/json";
  return new Promise((resolve) => {
    const req = request({ hostname, port, method, path: `/${ACCOUNT}/api${path}`, headers, agent: false }, (res) => {
      let data = "";
      res.on("data", (chunk: Buffer) => (data += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(text);
  });
}

export function useFaultsService(): FaultsService {
  let emulator: RunningEmulator | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), "etl-faults-"));
  const started = () => {
    if (emulator === undefined) throw new Error("the service starts before the tests");
    return emulator;
  };

  beforeAll(async () => {
    emulator = await startEmulator({ fixtures: testFixtures(), dataDir, creditsPerHour: 100_000 });
  });

  afterAll(async () => {
    await emulator?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  afterEach(async () => {
    await fetch(`${started().url}/_emulator/faults`, { method: "DELETE" });
    await fetch(`${started().url}/_emulator/requests`, { method: "DELETE" });
  });

  const control = (method: string, body?: unknown) => controlRequest(started(), "/faults", method, body);
  return {
    get emulator() {
      return started();
    },
    dataDir,
    control,
    async configure(body) {
      const response = await control("PUT", body);
      expect(response.status).toBe(200);
    },
    requestLog: async () => readJson(await fetch(`${started().url}/_emulator/requests`)),
    async publicKeyIds() {
      const state = await readJson(await fetch(`${started().url}/_emulator/state`));
      return state.accounts[0].publicKeys.map((key: { id: number }) => key.id);
    },
    raw: (method, path, body) => rawOn(started(), method, path, body),
  };
}
