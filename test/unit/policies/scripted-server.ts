import { afterEach } from "vitest";
/**
 * A local HTTP server answering a scripted sequence, one step per request: a status with
 * headers and body, optionally late, or a dropped connection, or no answer at all.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient, type ClientOptions } from "../../../provider/client";
import type { ClientSettings } from "../../../provider/config";

export type Step =
  | { status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number }
  /** Reads the whole request, then closes the connection without answering. */
  | { drop: true }
  /** Reads the request and never answers. */
  | { hang: true }
  /** Sends the headers, then never finishes the body. */
  | { stallBody: true };

export interface Received {
  method: string;
  url: string;
  body: string;
}

export interface ScriptedServer {
  url: string;
  port: number;
  received: Received[];
  /** Steps still to play; an exhausted script answers 500 so a test never hangs on it. */
  script: Step[];
  close(): Promise<void>;
}

export const ok = (body: unknown = { ok: true }, headers: Record<string, string> = {}): Step => ({ status: 200, body, headers });

export async function startScriptedServer(script: Step[], port = 0): Promise<ScriptedServer> {
  const received: Received[] = [];
  const state = { script: [...script] };
  const server = createServer((req, res) => {
    void handle(req, res, state, received);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    received,
    get script() {
      return state.script;
    },
    set script(steps: Step[]) {
      state.script = [...steps];
    },
    close: () => closeServer(server),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, state: { script: Step[] }, received: Received[]): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  received.push({ method: req.method ?? "", url: req.url ?? "", body: Buffer.concat(chunks).toString() });
  const step = state.script.shift() ?? { status: 500, body: { message: "script exhausted" } };
  if ("drop" in step) return void req.socket.destroy();
  if ("hang" in step) return;
  if ("stallBody" in step) {
    res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
    res.write("{");
    return;
  }
  if (step.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
  res.writeHead(step.status, { "content-type": "application/json", ...step.headers });
  res.end(step.body === undefined ? "" : JSON.stringify(step.body));
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Virtual time: sleeping only advances the clock, and every wait is recorded. */
export function virtualClock(start = Date.parse("2026-01-01T00:00:00Z")) {
  const clock = {
    time: start,
    waits: [] as number[],
    now: () => clock.time,
    sleep: async (ms: number) => {
      clock.waits.push(ms);
      clock.time += ms;
    },
  };
  return clock;
}

export const SETTINGS_FOR_TESTS: ClientSettings = { requestTimeoutSeconds: 5, maxRetries: 4, retryBudgetSeconds: 120 };

export function clientFor(url: string, settings: Partial<ClientSettings> = {}, options: ClientOptions = {}) {
  const clock = virtualClock();
  const client = createClient(
    { apiUrl: url, accountId: "acme", apiKey: "test-key", vendor: "service", ...SETTINGS_FOR_TESTS, ...settings },
    { sleep: clock.sleep, now: clock.now, random: () => 0.5, ...options },
  );
  return { ...client, clock };
}

export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the request to fail");
}

/**
 * For a test file: returns `serve(script)`, which starts a scripted server for one test and
 * closes it after that test.
 */
export function useScriptedServer(): (script: Step[]) => Promise<ScriptedServer> {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (script) => {
    server = await startScriptedServer(script);
    return server;
  };
}
