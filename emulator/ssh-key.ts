import { createHash } from "node:crypto";

/**
 * Parsing of OpenSSH public key lines (`<type> <base64 blob> [comment]`), the format users paste
 * from `~/.ssh/id_*.pub`. The service only shows the fingerprint and comment of a key, so the
 * emulator has to derive both the way OpenSSH does.
 */

export type SshKeyParseResult =
  | { ok: true; type: string; blob: Buffer; fingerprint: string; comment: string }
  | { ok: false; reason: string };

/**
 * The wire blob of every OpenSSH public key is a sequence of length-prefixed strings. Knowing how
 * many each type has lets the parser reject keys truncated while copying, which would otherwise
 * be stored with a fingerprint no machine will ever match.
 */
interface KeyTypeRule {
  fieldCount: number;
  /** Extra checks on the decoded fields; returns a reason when the blob is wrong. */
  check?: (fields: Buffer[]) => string | undefined;
}

const ED25519_KEY_BYTES = 32;

function ed25519KeyLength(fields: Buffer[]): string | undefined {
  return fields[1]?.length === ED25519_KEY_BYTES
    ? undefined
    : `the ed25519 key must be ${ED25519_KEY_BYTES} bytes`;
}

/** ECDSA blobs repeat the curve after the type; a mismatch means a corrupted or forged blob. */
function ecdsaCurve(curve: string): (fields: Buffer[]) => string | undefined {
  return (fields) =>
    fields[1]?.toString("latin1") === curve ? undefined : `the curve must be ${curve}`;
}

const KEY_TYPES: ReadonlyMap<string, KeyTypeRule> = new Map<string, KeyTypeRule>([
  ["ssh-rsa", { fieldCount: 3 }],
  ["ssh-dss", { fieldCount: 5 }],
  ["ssh-ed25519", { fieldCount: 2, check: ed25519KeyLength }],
  ["ecdsa-sha2-nistp256", { fieldCount: 3, check: ecdsaCurve("nistp256") }],
  ["ecdsa-sha2-nistp384", { fieldCount: 3, check: ecdsaCurve("nistp384") }],
  ["ecdsa-sha2-nistp521", { fieldCount: 3, check: ecdsaCurve("nistp521") }],
  ["sk-ssh-ed25519@openssh.com", { fieldCount: 3, check: ed25519KeyLength }],
  ["sk-ecdsa-sha2-nistp256@openssh.com", { fieldCount: 4, check: ecdsaCurve("nistp256") }],
]);

export const SUPPORTED_KEY_TYPES: readonly string[] = [...KEY_TYPES.keys()];

// Strict alphabet and padding: Buffer.from(..., "base64") silently skips junk characters.
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function fail(reason: string): SshKeyParseResult {
  return { ok: false, reason };
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

/** OpenSSH's legacy fingerprint: MD5 of the decoded blob as colon-separated hex bytes. */
export function md5Fingerprint(blob: Buffer): string {
  const hex = createHash("md5").update(blob).digest("hex");
  return hex.match(/../g)!.join(":");
}

function checkBlob(type: string, rule: KeyTypeRule, blob: Buffer): string | undefined {
  const fields = splitWireStrings(blob);
  if (fields === undefined || fields.length === 0 || fields[0]!.toString("latin1") !== type) {
    return `public_key blob does not match its declared type ${type}`;
  }
  if (fields.length !== rule.fieldCount) {
    return `public_key blob is truncated or malformed for key type ${type}`;
  }
  const problem = rule.check?.(fields);
  return problem === undefined
    ? undefined
    : `public_key blob is malformed for key type ${type}: ${problem}`;
}

export function parseSshPublicKey(input: string): SshKeyParseResult {
  const line = input.trim();
  if (/[\r\n]/.test(line)) {
    return fail("public_key must be a single line");
  }
  const match = /^(\S+)(?:\s+(\S+))?(?:\s+(.*))?$/s.exec(line);
  const type = match?.[1];
  const rule = type === undefined ? undefined : KEY_TYPES.get(type);
  if (type === undefined || rule === undefined) {
    return fail("public_key must start with a key type such as ssh-ed25519");
  }
  const encoded = match![2];
  if (encoded === undefined) {
    return fail(`public_key must have base64 key data after the key type ${type}`);
  }
  if (!BASE64_PATTERN.test(encoded)) {
    return fail("public_key is not valid base64");
  }
  const blob = Buffer.from(encoded, "base64");
  const problem = checkBlob(type, rule, blob);
  if (problem !== undefined) {
    return fail(problem);
  }
  return {
    ok: true,
    type,
    blob,
    fingerprint: md5Fingerprint(blob),
    comment: (match![3] ?? "").trim(),
  };
}
