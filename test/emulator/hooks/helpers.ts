import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { call, DANA_KEY, readJson } from "../helpers";

/**
 * What the hooks' tests share: valid settings of every type, a web hook's receiver, creating
 * hooks, and the check that no secret shows.
 */

const AUTH = Buffer.from("robot:s3cret").toString("base64");

export const VALID_SETTINGS = {
  web: { url: "https://example.com/hook", basic_auth: true, basic_auth_data: AUTH, insecure_ssl: false },
  slack: { url: "https://hooks.slack.example/T000/B000/XXXX", team: "data", channel: "alerts" },
  email: { emails: "ops@example.com, dana@example.com" },
  hipchat: { room: "1234", auth_token: "hip-token" },
  pagerduty: { pd_account: "acme", service_name: "ETL", service_key: "pd-key" },
} as const;

/** Texts of the secret settings above: no answer may contain any of them. */
export const SECRET_TEXTS = ["s3cret", AUTH, "hooks.slack.example/T000", "hip-token", "pd-key"];

// ---- a receiver: records every request and answers as told

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** The body exactly as received, for signature checks. */
  text: string;
  body: any;
}

export type Behaviour = "ok" | "error" | "hang";

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  /** How the next requests are answered: 200, 500, or never. */
  behave(behaviour: Behaviour): void;
  /** Resolves with the `count`th request (1-based), waiting for it if need be. */
  nth(count: number, timeoutMs?: number): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function answer(res: ServerResponse, behaviour: Behaviour): void {
  if (behaviour === "hang") return;
  res.writeHead(behaviour === "ok" ? 200 : 500, { "Content-Type": "text/plain" });
  res.end(behaviour === "ok" ? "thanks" : "receiver broke");
}

export async function startReceiver(path = "/hook"): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const waiters: (() => void)[] = [];
  let behaviour: Behaviour = "ok";
  const server: Server = createServer(async (req, res) => {
    const text = await readText(req);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, text, body });
    for (const wake of waiters.splice(0)) wake();
    answer(res, behaviour);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const nth = async (count: number, timeoutMs = 5000): Promise<ReceivedRequest> => {
    const deadline = Date.now() + timeoutMs;
    while (received.length < count) {
      if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} requests, not ${count}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return received[count - 1]!;
  };
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    behave: (next) => {
      behaviour = next;
    },
    nth,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An address nothing listens on: a port just freed. */
export async function downUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}

// ---- creating hooks, and no secret in any answer

/** Calls to the emulator the file started, read when each call is made. */
export function hookCalls(emulator: () => RunningEmulator) {
  const post = (body: unknown, key = DANA_KEY): Promise<Response> => call(emulator(), "/hooks", { method: "POST", body, key });
  const create = async (body: Record<string, unknown>): Promise<any> => {
    const response = await post(body);
    expect(response.status).toBe(201);
    return readJson(response);
  };
  return { post, create };
}

export function expectNoSecret(text: string): void {
  for (const secret of SECRET_TEXTS) expect(text).not.toContain(secret);
}
