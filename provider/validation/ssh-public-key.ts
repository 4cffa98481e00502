/**
 * The OpenSSH public key line `<type> <base64 blob> [comment]`, as in a `.pub` file.
 * Pure and dependency-free: the provider checks keys with it before any API call.
 */
import { createHash } from "node:crypto";

export const SSH_KEY_TYPES = [
  "ssh-ed25519",
  "ssh-rsa",
  "ssh-dss",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
] as const;

export interface SshPublicKey {
  type: string;
  blob: Buffer;
  comment: string;
  /** `<type> <base64>[ <comment>]` with single spaces, no surrounding whitespace. */
  normalized: string;
  /** MD5 of the decoded blob as 16 lowercase hex bytes joined by colons. */
  fingerprint: string;
}

/** `secret`: the text looked like a private key, so it must not be shown anywhere. */
export type SshKeyParse = { ok: true; key: SshPublicKey } | { ok: false; rule: string; secret?: true };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Parses a key line. Failure texts describe the rule broken and never echo the value. */
export function parseSshPublicKey(text: string): SshKeyParse {
  const trimmed = text.trim();
  if (/PRIVATE KEY/.test(trimmed)) {
    return { ok: false, rule: "must be a public key; this looks like a private key (use the contents of the .pub file)", secret: true };
  }
  const [type = "", encoded = "", ...commentWords] = trimmed.split(/\s+/);
  if (!(SSH_KEY_TYPES as readonly string[]).includes(type)) {
    return { ok: false, rule: `must start with a key type (${SSH_KEY_TYPES.slice(0, 3).join(", ")}, ...) followed by the base64 key` };
  }
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) {
    return { ok: false, rule: `must have the key as base64 after "${type}"` };
  }
  const blob = Buffer.from(encoded, "base64");
  if (embeddedType(blob) !== type) {
    return { ok: false, rule: `must hold a ${type} key: the base64 part is not one` };
  }
  const comment = commentWords.join(" ");
  return {
    ok: true,
    key: {
      type,
      blob,
      comment,
      normalized: [type, encoded, ...(comment ? [comment] : [])].join(" "),
      fingerprint: md5Fingerprint(blob),
    },
  };
}

/** The wire format starts with the key type as a length-prefixed string. */
function embeddedType(blob: Buffer): string | undefined {
  if (blob.length < 4) return undefined;
  const length = blob.readUInt32BE(0);
  if (length === 0 || length > 64 || blob.length < 4 + length) return undefined;
  return blob.subarray(4, 4 + length).toString("latin1");
}

export function md5Fingerprint(blob: Buffer): string {
  return createHash("md5").update(blob).digest("hex").match(/../g)!.join(":");
}
