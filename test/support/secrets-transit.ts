/**
 * The key service the tests' stacks keep their secrets with (vitest's globalSetup): Pulumi's
 * `hashivault://` secrets provider, which asks a Vault server's transit engine to encrypt and
 * decrypt each stack's data key, served here for the run on a loopback port with a key of the
 * run's own (AES-256-GCM), so no secret is ever stored in plain text.
 *
 * Why not the passphrase, as a user's stack on a file backend has: it derives its key with
 * 1,000,000 rounds of PBKDF2 in every CLI command that opens a stack (0.2 s of CPU on a 2-core
 * machine, a fifth of the engine's CPU across the suite). The tests of what a user installs
 * (test/release) keep the passphrase; only the secrets provider of the other stacks differs.
 */
import { createCipheriv, createDecipheriv, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

const URL_VARIABLE = "ETL_TEST_TRANSIT_URL";
const TOKEN_VARIABLE = "ETL_TEST_TRANSIT_TOKEN";
/** The stacks' secrets provider: the transit key named `etl-tests`. */
export const TEST_SECRETS_PROVIDER = "hashivault://etl-tests";

const ROUTE = /^\/v1\/transit\/(encrypt|decrypt)\/etl-tests$/;
const PREFIX = "vault:v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

function encrypt(key: Buffer, plaintext: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return PREFIX + sealed.toString("base64");
}

function decrypt(key: Buffer, ciphertext: string): Buffer {
  if (!ciphertext.startsWith(PREFIX)) throw new Error("ciphertext is not of this transit key");
  const sealed = Buffer.from(ciphertext.slice(PREFIX.length), "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, IV_BYTES));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
}

function reply(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function answer(key: Buffer, token: string, request: IncomingMessage, body: string, response: ServerResponse): void {
  const route = ROUTE.exec(request.url ?? "");
  const given = Buffer.from(String(request.headers["x-vault-token"] ?? ""));
  if (given.length !== token.length || !timingSafeEqual(given, Buffer.from(token))) {
    reply(response, 403, { errors: ["permission denied"] });
    return;
  }
  if (!route || (request.method !== "PUT" && request.method !== "POST")) {
    reply(response, 404, { errors: ["no handler for route"] });
    return;
  }
  try {
    const input = JSON.parse(body) as { plaintext?: string; ciphertext?: string };
    const data =
      route[1] === "encrypt"
        ? { ciphertext: encrypt(key, Buffer.from(input.plaintext ?? "", "base64")) }
        : { plaintext: decrypt(key, input.ciphertext ?? "").toString("base64") };
    reply(response, 200, { data });
  } catch (error) {
    reply(response, 400, { errors: [String((error as Error).message)] });
  }
}

let server: Server | undefined;

export async function setup(): Promise<void> {
  const key = randomBytes(32);
  const token = randomBytes(16).toString("hex");
  server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => answer(key, token, request, body, response));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the transit server has no port");
  process.env[URL_VARIABLE] = `http://127.0.0.1:${address.port}`;
  process.env[TOKEN_VARIABLE] = token;
}

export async function teardown(): Promise<void> {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

/** What a CLI needs to reach the run's transit key (Pulumi's hashivault provider reads these). */
export function transitEnv(): Record<string, string> {
  const url = process.env[URL_VARIABLE];
  const token = process.env[TOKEN_VARIABLE];
  if (!url || !token) throw new Error(`${URL_VARIABLE} is not set: run the tests through vitest, whose globalSetup serves the transit key`);
  return { VAULT_SERVER_URL: url, VAULT_SERVER_TOKEN: token };
}

/** A ciphertext of the run's transit key, decrypted by its server (as Pulumi's hashivault provider asks it). */
export async function transitDecrypt(ciphertext: string): Promise<Buffer> {
  const { VAULT_SERVER_URL: url, VAULT_SERVER_TOKEN: token } = transitEnv();
  const response = await fetch(`${url}/v1/transit/decrypt/etl-tests`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-vault-token": token },
    body: JSON.stringify({ ciphertext }),
  });
  const body = (await response.json()) as { data?: { plaintext?: string }; errors?: string[] };
  if (!response.ok || body.data?.plaintext === undefined)
    throw new Error(`the transit key's server refused to decrypt: ${response.status} ${body.errors?.join("; ") ?? ""}`);
  return Buffer.from(body.data.plaintext, "base64");
}
