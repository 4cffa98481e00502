/**
 * What the CLI prints of a test stack, read from its file backend instead: `stack export
 * --show-secrets`, `stack output --json --show-secrets` (each output marked secret where the masked
 * listing hides it) and the newest entry of `stack history --json`. Every start of the CLI costs
 * about a fifth of a second of CPU, and the tests read these some 450 times a run.
 *
 * The secrets are the run's transit key's (secrets-transit.ts): the stack's data key is decrypted
 * by that key's server once, then each value with AES-256-GCM, as Pulumi's symmetric crypter
 * stores it (`v1:<nonce>:<sealed>`). A stack whose files hold anything else (no update yet,
 * another secrets provider, a value of a kind read here as nothing else) is read by the CLI.
 * test/engine/stack-files.test.ts holds each reading equal to the CLI's.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import type { OutputMap, UpdateSummary } from "@pulumi/pulumi/automation";
import { SECRET_SIGNATURE as SECRET, SPECIAL_SIGNATURE as SIGNATURE } from "../../provider/plugin/values";
import { TEST_SECRETS_PROVIDER, transitDecrypt } from "./secrets-transit";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Deployment = { secrets_providers?: { type?: string; state?: { url?: string; encryptedkey?: string } }; resources?: Array<Record<string, Json>> };

/** The stack's files as the CLI would print them; undefined where only the CLI can say. */
export interface StackReading {
  exported(): { version: number; deployment: Json } | undefined;
  outputs(): OutputMap | undefined;
  lastUpdate(showSecrets: boolean): UpdateSummary | undefined;
}

/** The data keys a stack's files were sealed with, by their encrypted form: each decrypted once. */
export type DataKeys = Map<string, Buffer>;

/** The data key a stack's `encryptedkey` seals, decrypted by the transit key's server the first time. */
export async function dataKeyOf(sealedKey: string, keys: DataKeys): Promise<Buffer> {
  if (!keys.has(sealedKey)) keys.set(sealedKey, await transitDecrypt(Buffer.from(sealedKey, "base64").toString("utf8")));
  return keys.get(sealedKey)!;
}

/** The file of `name` among the backend's stacks (a test's backend holds one project). */
function stackFile(backend: string, name: string, kind: "stacks" | "history"): string | undefined {
  const root = path.join(backend, ".pulumi", kind);
  if (!existsSync(root)) return undefined;
  for (const project of readdirSync(root)) {
    const candidate = kind === "stacks" ? path.join(root, project, `${name}.json`) : path.join(root, project, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** `plaintext` sealed with a stack's data key, as Pulumi's symmetric crypter seals a secret. */
export function sealed(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const bytes = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1:${nonce.toString("base64")}:${bytes.toString("base64")}`;
}

/** The plaintext of a secret `sealed` (or the CLI) sealed with the stack's data key. */
function decrypt(key: Buffer, sealed: string): string {
  const [version, nonce, body] = sealed.split(":");
  if (version !== "v1" || nonce === undefined || body === undefined) throw new Error(`a secret in an unknown form: ${sealed.slice(0, 8)}…`);
  const bytes = Buffer.from(body, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64"));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
}

/** Thrown where a value is of a kind only the CLI prints. */
class OnlyTheCli extends Error {}

/** `value` with each secret's ciphertext replaced by its plaintext, as `--show-secrets` prints it. */
function revealed(value: Json, key: Buffer): Json {
  if (Array.isArray(value)) return value.map((item) => revealed(item, key));
  if (value === null || typeof value !== "object") return value;
  if (value[SIGNATURE] === SECRET && typeof value.ciphertext === "string") return { [SIGNATURE]: SECRET, plaintext: decrypt(key, value.ciphertext) };
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, revealed(item, key)]));
}

/**
 * An output's plain value, its secrets shown; a special value other than a secret is the CLI's
 * to print. The masked listing hides an output only when the output itself is secret.
 */
function plainValue(value: Json): Json {
  if (Array.isArray(value)) return value.map(plainValue);
  if (value === null || typeof value !== "object") return value;
  if (SIGNATURE in value) {
    if (value[SIGNATURE] !== SECRET || typeof value.plaintext !== "string") throw new OnlyTheCli();
    return plainValue(JSON.parse(value.plaintext) as Json);
  }
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, plainValue(item)]));
}

const isSecret = (value: Json) => value !== null && typeof value === "object" && !Array.isArray(value) && value[SIGNATURE] === SECRET;

function orCli<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof OnlyTheCli) return undefined;
    throw error;
  }
}

/** The newest update of the stack's history, as `stack history --json --page-size 1` prints it. */
function lastUpdateIn(historyDir: string, key: Buffer, showSecrets: boolean): UpdateSummary {
  // Each entry is named `<stack>-<Unix nanoseconds>.history.json`.
  const entries = readdirSync(historyDir).flatMap((name) => {
    const stamp = /-(\d+)\.history\.json$/.exec(name)?.[1];
    return stamp === undefined ? [] : [{ name, stamp: BigInt(stamp) }];
  });
  if (entries.length === 0) throw new OnlyTheCli();
  const newest = entries.reduce((latest, entry) => (entry.stamp > latest.stamp ? entry : latest)).name;
  const entry = JSON.parse(readFileSync(path.join(historyDir, newest), "utf8")) as Record<string, Json>;
  const config = Object.fromEntries(
    Object.entries((entry.config ?? {}) as Record<string, Json>).map(([name, value]) => {
      if (typeof value === "string") return [name, { value, secret: false }];
      if (value !== null && typeof value === "object" && !Array.isArray(value) && typeof value.secure === "string") {
        return [name, showSecrets ? { value: decrypt(key, value.secure), secret: true } : { secret: true }];
      }
      throw new OnlyTheCli();
    }),
  );
  const at = (seconds: Json) => new Date(Number(seconds) * 1000);
  return { ...entry, config, startTime: at(entry.startTime ?? 0), endTime: at(entry.endTime ?? 0) } as unknown as UpdateSummary;
}

/** The stack's files, read now, or undefined where they are the CLI's to read (see above). */
export async function readStackFiles(backend: string, name: string, keys: DataKeys): Promise<StackReading | undefined> {
  const file = stackFile(backend, name, "stacks");
  if (file === undefined) return undefined;
  const latest = (JSON.parse(readFileSync(file, "utf8")) as { checkpoint?: { latest?: Deployment | null } }).checkpoint?.latest;
  const provider = latest?.secrets_providers;
  const sealedKey = provider?.state?.encryptedkey;
  if (!latest || provider?.type !== "cloud" || provider.state?.url !== TEST_SECRETS_PROVIDER || sealedKey === undefined) return undefined;
  const key = await dataKeyOf(sealedKey, keys);
  const historyDir = stackFile(backend, name, "history");
  return {
    exported: () => ({ version: 3, deployment: revealed(latest as Json, key) }),
    outputs: () =>
      orCli(() => {
        const stack = (latest.resources ?? []).find((resource) => resource.type === "pulumi:pulumi:Stack");
        const outputs = revealed((stack?.outputs ?? {}) as Json, key) as Record<string, Json>;
        return Object.fromEntries(
          Object.entries(outputs).map(([output, value]) => [output, { value: plainValue(value), secret: isSecret(value) }]),
        ) as OutputMap;
      }),
    lastUpdate: (showSecrets) => (historyDir === undefined ? undefined : orCli(() => lastUpdateIn(historyDir, key, showSecrets))),
  };
}
