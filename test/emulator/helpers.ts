import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, expect } from "vitest";
import { createHash, generateKeyPairSync } from "node:crypto";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../emulator";
import { createHttpRequest, type RequestFn } from "../../provider/client/http";

/** Shared setup for the emulator tests: known credentials, real keys, and a small client. */

export const ACCEPT = "application/vnd.service+json; version=2";

export const DANA_KEY = "test-key-dana-0001";
export const LEE_KEY = "test-key-lee-0002";
export const OTHER_KEY = "test-key-other-0003";

export const ACCOUNT = "acme-data";
export const OTHER_ACCOUNT = "globex";

export const UNBILLED_ACCOUNT = "initech";
export const UNBILLED_KEY = "test-key-initech-0004";

/** An account without billing information, whose job runs are refused with 402. */
export function unbilledAccount(): NonNullable<Fixtures["accounts"]>[number] {
  return {
    id: 3,
    uid: UNBILLED_ACCOUNT,
    billing: false,
    users: [{ id: 4, name: "Ivy Unbilled", email: "ivy@example.net", apiKey: UNBILLED_KEY }],
    clusters: [{ id: 81, name: "initech" }],
    packages: [{ id: 801, name: "initech-package" }],
  };
}

export function testFixtures(): Fixtures {
  return {
    accounts: [
      {
        id: 1,
        uid: ACCOUNT,
        users: [
          { id: 1, name: "Dana Platform", email: "dana@example.com", apiKey: DANA_KEY },
          { id: 2, name: "Lee Analyst", email: "lee@example.com", apiKey: LEE_KEY },
        ],
      },
      {
        id: 2,
        uid: OTHER_ACCOUNT,
        users: [{ id: 3, name: "Olu Other", email: "olu@example.org", apiKey: OTHER_KEY }],
      },
    ],
  };
}

/** An emulator with the given fixtures and the provider's client signed in as Dana. */
export async function startWithClient(fixtures: Fixtures): Promise<{ emulator: RunningEmulator; dana: RequestFn }> {
  const emulator = await startTestEmulator(fixtures);
  const dana = createHttpRequest({ apiUrl: emulator.url, accountId: ACCOUNT, apiKey: DANA_KEY, vendor: "service" });
  return { emulator, dana };
}

export function startTestEmulator(fixtures: Fixtures = testFixtures()): Promise<RunningEmulator> {
  return startEmulator({ port: 0, fixtures });
}

/**
 * For files whose tests each start their own emulators: returns a function that registers an
 * emulator (and passes it through), and closes every registered one after each test.
 */
export function closedAfterEach(): (emulator: RunningEmulator) => RunningEmulator {
  const open: RunningEmulator[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((emulator) => emulator.close()));
  });
  return (emulator) => {
    open.push(emulator);
    return emulator;
  };
}

/** For files whose tests restart emulators on their data: makes fresh folders, removed after the file's tests. */
export function dataDirsRemovedAfterAll(prefix: string): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

export function basic(apiKey: string): string {
  return `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
}

export interface CallOptions {
  method?: string;
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  account?: string;
}

/** A response body as JSON, typed loosely: tests assert on its shape. */
export function readJson(response: Response): Promise<any> {
  return response.json();
}

/**
 * An Error body (spec 2.8) and nothing else, with the API media type; returns its message.
 * `message` pins the text exactly, or by pattern.
 */
export async function expectError(response: Response, status: number, message?: string | RegExp): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe(ACCEPT);
  const body = await readJson(response);
  expect(Object.keys(body)).toEqual(["message"]);
  expect(typeof body.message).toBe("string");
  expect(body.message).not.toBe("");
  if (message !== undefined) {
    expect(body.message).toEqual(typeof message === "string" ? message : expect.stringMatching(message));
  }
  return body.message;
}

/** The `rel="next"` address of a Link header, as given. */
export function nextLink(response: Response): string | undefined {
  return /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
}

/** Fetches an address exactly as the service gave it (a Link target), with valid credentials. */
export function fetchAsIs(url: string, key = DANA_KEY): Promise<Response> {
  return fetch(url, { headers: { Accept: ACCEPT, Authorization: basic(key) } });
}

/** The record has exactly the documented fields. */
export function expectOnlyFields(body: unknown, fields: readonly string[]): void {
  expect(Object.keys(body as object).sort()).toEqual([...fields].sort());
}

/** Sends a request the way a correct client does, unless options say otherwise. */
function send(url: string, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: ACCEPT };
  const key = options.key === undefined ? DANA_KEY : options.key;
  if (key !== null) headers.Authorization = basic(key);
  let body: string | undefined;
  if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  return fetch(url, { method: options.method ?? "GET", headers: { ...headers, ...options.headers }, body });
}

/** Calls `{base_url}<path>` of `options.account` (default acme-data). */
export function call(emulator: RunningEmulator, path: string, options: CallOptions = {}): Promise<Response> {
  return send(`${emulator.url}/${options.account ?? ACCOUNT}/api${path}`, options);
}

/** Calls a host-root path (`/user`, `/accounts…`), outside `{base_url}`. */
export function rootCall(emulator: RunningEmulator, path: string, options: Omit<CallOptions, "account"> = {}): Promise<Response> {
  return send(`${emulator.url}${path}`, options);
}

/** A control request to `/_emulator<path>`, with a JSON body when one is given. */
export function control(emulator: { url: string }, path: string, method = "GET", body?: unknown): Promise<Response> {
  return fetch(`${emulator.url}/_emulator${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Registers a fresh ed25519 key for the user of `key`, which must succeed. */
export async function createKey(emulator: RunningEmulator, key = DANA_KEY, account?: string, comment = "test"): Promise<{ id: number }> {
  const response = await call(emulator, "/user/keys", { method: "POST", key, account, body: { public_key: ed25519Key(comment).line } });
  expect(response.status).toBe(201);
  return readJson(response);
}

// ---- SSH keys, built from real key pairs in the OpenSSH wire format (RFC 4253 section 6.6).

function sshString(data: Buffer | string): Buffer {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** mpint: big-endian two's complement, so a set high bit needs a leading zero byte. */
function sshMpint(unsigned: Buffer): Buffer {
  let bytes = unsigned;
  while (bytes.length > 1 && bytes[0] === 0) bytes = bytes.subarray(1);
  return sshString(bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

export interface TestSshKey {
  line: string;
  base64: string;
  /** Computed here independently of the emulator: MD5 over the decoded base64. */
  fingerprint: string;
}

function sshKey(type: string, blob: Buffer, comment?: string): TestSshKey {
  const base64 = blob.toString("base64");
  const digest = createHash("md5").update(Buffer.from(base64, "base64")).digest("hex");
  return {
    line: comment === undefined ? `${type} ${base64}` : `${type} ${base64} ${comment}`,
    base64,
    fingerprint: digest.match(/../g)!.join(":"),
  };
}

export function ed25519Key(comment?: string): TestSshKey {
  const { publicKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  return sshKey("ssh-ed25519", Buffer.concat([sshString("ssh-ed25519"), sshString(raw)]), comment);
}

export function rsaKey(comment?: string, modulusLength = 2048): TestSshKey {
  const { publicKey } = generateKeyPairSync("rsa", { modulusLength });
  const jwk = publicKey.export({ format: "jwk" });
  const blob = Buffer.concat([sshString("ssh-rsa"), sshMpint(Buffer.from(jwk.e!, "base64url")), sshMpint(Buffer.from(jwk.n!, "base64url"))]);
  return sshKey("ssh-rsa", blob, comment);
}

export function ecdsaP256Key(comment?: string): TestSshKey {
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, "base64url"), Buffer.from(jwk.y!, "base64url")]);
  const blob = Buffer.concat([sshString("ecdsa-sha2-nistp256"), sshString("nistp256"), sshString(point)]);
  return sshKey("ecdsa-sha2-nistp256", blob, comment);
}

/** A blob assembled from arbitrary fields, for keys that are well-formed base64 but wrong. */
export function rawKeyLine(type: string, fields: (Buffer | string)[], comment?: string): string {
  return sshKey(type, Buffer.concat(fields.map(sshString)), comment).line;
}

/**
 * The emulator's CLI as `npm test` built it (scripts/setup.sh compiles the package before any
 * test starts). Never compiled here: tsc rewrites dist/ in place, and a provider process of
 * another test file loading a module at that moment finds it empty.
 */
export function builtEmulatorCli(): string {
  const cli = resolve(__dirname, "../../dist/emulator/cli.js");
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first (npm test runs it)`);
  return cli;
}

/** A record as the API answers it. */
export type ApiRecord = Record<string, any> & { id: number };

/**
 * Resolves once the emulator's clock (the wall clock it stamps records with) reads later than
 * `iso`: a write from then on would be stamped with another time, so a stamp left as it was shows
 * that nothing was written.
 */
export async function clockPast(iso: string): Promise<void> {
  while (Date.now() <= Date.parse(iso)) await new Promise((resolve) => setImmediate(resolve));
}

/** Polls `read` until `done` holds; fails with the last value when `timeoutMs` passes first. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not reached in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
