/**
 * The OpenSSH public key line `<type> <base64 blob> [comment]`, as in a `.pub` file: the one
 * parser both the provider (at preview, before any API call) and the emulator (at create)
 * use, so what a preview accepts is what the service accepts.
 *
 * The blob is a sequence of length-prefixed strings, the first being the key type; knowing how
 * many each type has refuses keys truncated while copying, which would otherwise be stored with
 * a fingerprint no machine will ever match. Beyond the shape, each key is judged as OpenSSH
 * judges it: RSA moduli of 1024 to 16384 bits with an odd exponent of at least 3, DSA refused,
 * ECDSA curves that match their type with points of the curve's exact size, ed25519 keys of 32
 * bytes. Rules read after the field's name ("must ...", "is ...") and never echo the value.
 */
import { createHash } from "node:crypto";

interface KeyTypeRule {
  fieldCount: number;
  /** Extra checks on the decoded fields; returns what is wrong. */
  check?: (fields: Buffer[]) => string | undefined;
}

const ED25519_KEY_BYTES = 32;

function ed25519KeyLength(fields: Buffer[]): string | undefined {
  return fields[1]?.length === ED25519_KEY_BYTES ? undefined : `the ed25519 key must be ${ED25519_KEY_BYTES} bytes`;
}

/** OpenSSH's bounds for RSA moduli (SSH_RSA_MINIMUM_MODULUS_SIZE, and its bignum limit). */
const RSA_MIN_BITS = 1024;
const RSA_MAX_BITS = 16384;

/** An mpint's value as a bigint; undefined when negative (the top bit set), which a key never is. */
function unsignedMpint(bytes: Buffer): bigint | undefined {
  if (bytes.length > 0 && (bytes[0]! & 0x80) !== 0) return undefined;
  return bytes.length === 0 ? 0n : BigInt(`0x${bytes.toString("hex")}`);
}

function rsaNumbers(fields: Buffer[]): string | undefined {
  const exponent = unsignedMpint(fields[1]!);
  const modulus = unsignedMpint(fields[2]!);
  if (exponent === undefined || modulus === undefined) return "its exponent and modulus must be positive";
  if (exponent < 3n || exponent % 2n === 0n) return "the exponent must be odd and at least 3";
  const bits = modulus.toString(2).length;
  if (bits < RSA_MIN_BITS) return `the modulus must be at least ${RSA_MIN_BITS} bits, this one is ${bits}`;
  if (bits > RSA_MAX_BITS) return `the modulus must be at most ${RSA_MAX_BITS} bits, this one is ${bits}`;
  return undefined;
}

/** An uncompressed point (0x04, X, Y) on each curve: exactly this many bytes. */
const CURVE_POINT_BYTES = { nistp256: 65, nistp384: 97, nistp521: 133 } as const;

/**
 * ECDSA blobs repeat the curve after the type, then hold the point: a curve that differs from
 * the type's, or a point of another size, is a corrupted or forged key.
 */
function ecdsaKey(curve: keyof typeof CURVE_POINT_BYTES): (fields: Buffer[]) => string | undefined {
  return (fields) => {
    if (fields[1]?.toString("latin1") !== curve) return `the curve must be ${curve}`;
    const point = fields[2]!;
    if (point.length !== CURVE_POINT_BYTES[curve] || point[0] !== 0x04)
      return `the ${curve} point must be ${CURVE_POINT_BYTES[curve]} bytes, uncompressed (0x04 first)`;
    return undefined;
  };
}

const KEY_TYPES: ReadonlyMap<string, KeyTypeRule> = new Map<string, KeyTypeRule>([
  ["ssh-ed25519", { fieldCount: 2, check: ed25519KeyLength }],
  ["ssh-rsa", { fieldCount: 3, check: rsaNumbers }],
  ["ecdsa-sha2-nistp256", { fieldCount: 3, check: ecdsaKey("nistp256") }],
  ["ecdsa-sha2-nistp384", { fieldCount: 3, check: ecdsaKey("nistp384") }],
  ["ecdsa-sha2-nistp521", { fieldCount: 3, check: ecdsaKey("nistp521") }],
  ["sk-ssh-ed25519@openssh.com", { fieldCount: 3, check: ed25519KeyLength }],
  ["sk-ecdsa-sha2-nistp256@openssh.com", { fieldCount: 4, check: ecdsaKey("nistp256") }],
]);

/** Types OpenSSH no longer accepts, with why. */
const REFUSED_TYPES: ReadonlyMap<string, string> = new Map([
  ["ssh-dss", "must not be a DSA (ssh-dss) key: OpenSSH no longer accepts them; use ssh-ed25519, ECDSA or RSA of at least 1024 bits"],
]);

export const SSH_KEY_TYPES: readonly string[] = [...KEY_TYPES.keys()];

export interface SshPublicKey {
  type: string;
  blob: Buffer;
  /** The rest of the line after the blob, trimmed; empty when there is none. */
  comment: string;
  /** `<type> <base64>[ <comment>]` with single spaces between the parts, no surrounding whitespace. */
  normalized: string;
  /** MD5 of the decoded blob as 16 lowercase hex bytes joined by colons, as `ssh-keygen -l -E md5` prints it. */
  fingerprint: string;
}

export type SshKeyParse = { ok: true; key: SshPublicKey } | { ok: false; rule: string };

// Strict alphabet and padding: Buffer.from(..., "base64") silently skips junk characters.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const refuse = (rule: string): SshKeyParse => ({ ok: false, rule });

export function parseSshPublicKey(text: string): SshKeyParse {
  const line = text.trim();
  if (/PRIVATE KEY/.test(line)) return refuse("must be a public key; this looks like a private key (use the contents of the .pub file)");
  if (/[\r\n]/.test(line)) return refuse("must be a single line");
  const match = /^(\S+)(?:\s+(\S+))?(?:\s+(.*))?$/s.exec(line);
  const type = match?.[1];
  const refused = type === undefined ? undefined : REFUSED_TYPES.get(type);
  if (refused !== undefined) return refuse(refused);
  const rule = type === undefined ? undefined : KEY_TYPES.get(type);
  if (type === undefined || rule === undefined) return refuse("must start with a key type such as ssh-ed25519");
  const encoded = match![2];
  if (encoded === undefined) return refuse(`must have base64 key data after the key type ${type}`);
  if (!BASE64.test(encoded)) return refuse("is not valid base64");
  const blob = Buffer.from(encoded, "base64");
  const problem = blobProblem(type, rule, blob);
  if (problem !== undefined) return refuse(problem);
  const comment = (match![3] ?? "").trim();
  return {
    ok: true,
    key: { type, blob, comment, normalized: [type, encoded, ...(comment ? [comment] : [])].join(" "), fingerprint: md5Fingerprint(blob) },
  };
}

function blobProblem(type: string, rule: KeyTypeRule, blob: Buffer): string | undefined {
  const fields = splitWireStrings(blob);
  if (fields === undefined || fields.length === 0 || fields[0]!.toString("latin1") !== type) {
    return `must hold a ${type} key: the base64 part does not match its declared type`;
  }
  if (fields.length !== rule.fieldCount) return `must hold a whole ${type} key: the base64 part is truncated or malformed`;
  const problem = rule.check?.(fields);
  return problem === undefined ? undefined : `must hold a well-formed ${type} key: ${problem}`;
}

/** Splits the blob into its length-prefixed fields; undefined when the lengths do not add up. */
export function splitWireStrings(blob: Buffer): Buffer[] | undefined {
  const fields: Buffer[] = [];
  let offset = 0;
  while (offset < blob.length) {
    if (offset + 4 > blob.length) return undefined;
    const length = blob.readUInt32BE(offset);
    const start = offset + 4;
    if (start + length > blob.length) return undefined;
    fields.push(blob.subarray(start, start + length));
    offset = start + length;
  }
  return fields;
}

export function md5Fingerprint(blob: Buffer): string {
  return createHash("md5").update(blob).digest("hex").match(/../g)!.join(":");
}
