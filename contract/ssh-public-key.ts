/**
 * The OpenSSH public key line `<type> <base64 blob> [comment]`, as in a `.pub` file: the one
 * parser both the provider (at preview, before any API call) and the local service (at create)
 * use, so what a preview accepts is what the service accepts.
 *
 * The blob is a sequence of length-prefixed strings, the first being the key type; knowing how
 * many each type has refuses keys truncated while copying, which would otherwise be stored with
 * a fingerprint no machine will ever match. Rules read after the field's name ("must ...", "is
 * ...") and never echo the value.
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

/** ECDSA blobs repeat the curve after the type; a mismatch means a corrupted or forged blob. */
function ecdsaCurve(curve: string): (fields: Buffer[]) => string | undefined {
  return (fields) => (fields[1]?.toString("latin1") === curve ? undefined : `the curve must be ${curve}`);
}

const KEY_TYPES: ReadonlyMap<string, KeyTypeRule> = new Map<string, KeyTypeRule>([
  ["ssh-ed25519", { fieldCount: 2, check: ed25519KeyLength }],
  ["ssh-rsa", { fieldCount: 3 }],
  ["ssh-dss", { fieldCount: 5 }],
  ["ecdsa-sha2-nistp256", { fieldCount: 3, check: ecdsaCurve("nistp256") }],
  ["ecdsa-sha2-nistp384", { fieldCount: 3, check: ecdsaCurve("nistp384") }],
  ["ecdsa-sha2-nistp521", { fieldCount: 3, check: ecdsaCurve("nistp521") }],
  ["sk-ssh-ed25519@openssh.com", { fieldCount: 3, check: ed25519KeyLength }],
  ["sk-ecdsa-sha2-nistp256@openssh.com", { fieldCount: 4, check: ecdsaCurve("nistp256") }],
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
