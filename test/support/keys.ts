/** SSH public keys for tests: a fresh ed25519 key line and its MD5 fingerprint, as the service shows it. */
import { createHash, generateKeyPairSync } from "node:crypto";

/** The SSH wire format's string: a 32-bit big-endian length, then the bytes. */
function sshString(bytes: Buffer): Buffer {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(bytes.length, 0);
  return Buffer.concat([prefix, bytes]);
}

export function ed25519PublicKeyLine(comment: string): { line: string; fingerprint: string } {
  const der = generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" });
  const raw = der.subarray(der.length - 32);
  const blob = Buffer.concat([sshString(Buffer.from("ssh-ed25519")), sshString(raw)]);
  const fingerprint = createHash("md5").update(blob).digest("hex").match(/../g)!.join(":");
  return { line: `ssh-ed25519 ${blob.toString("base64")} ${comment}`, fingerprint };
}

/** A fresh OpenSSH ed25519 public key line. */
export function freshEd25519Key(comment: string): string {
  return ed25519PublicKeyLine(comment).line;
}
