import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseSshPublicKey } from "../../contract/ssh-public-key";

// ssh-keygen -l -E md5 of this key prints MD5:da:b7:da:4e:f8:9f:e5:a4:e5:50:a8:df:a1:b4:b5:93.
const ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH quickstart-deploy";

function rsaKeyLine(): string {
  const jwk = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ format: "jwk" });
  const mpint = (b64url: string) => {
    const bytes = Buffer.from(b64url, "base64url");
    return bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes;
  };
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, 0].map((_, i) => (bytes.length >> (24 - 8 * i)) & 0xff)), bytes]);
  const blob = Buffer.concat([field(Buffer.from("ssh-rsa")), field(mpint(jwk.e!)), field(mpint(jwk.n!))]);
  return `ssh-rsa ${blob.toString("base64")}`;
}

describe("parseSshPublicKey", () => {
  it("computes the OpenSSH MD5 fingerprint and the comment", () => {
    const parsed = parseSshPublicKey(`  ${ED25519.replace(" ", "\t")}\n`);
    expect(parsed).toMatchObject({
      ok: true,
      key: { type: "ssh-ed25519", comment: "quickstart-deploy", normalized: ED25519, fingerprint: "da:b7:da:4e:f8:9f:e5:a4:e5:50:a8:df:a1:b4:b5:93" },
    });
  });

  it("accepts an RSA key without a comment", () => {
    const parsed = parseSshPublicKey(rsaKeyLine());
    expect(parsed.ok && parsed.key.comment).toBe("");
    expect(parsed.ok && parsed.key.fingerprint).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
  });

  it.each([
    ["", "must start with a key type"],
    ["ssh-foo AAAA", "must start with a key type"],
    ["ssh-ed25519", "must have base64 key data after the key type ssh-ed25519"],
    ["ssh-ed25519 not*base64", "is not valid base64"],
    [ED25519.replace("ssh-ed25519", "ssh-rsa"), "must hold a ssh-rsa key"],
    ["-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----", "looks like a private key"],
  ])("rejects %j", (text, rule) => {
    const parsed = parseSshPublicKey(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.rule).toContain(rule);
  });

  it("never echoes a private key it refuses", () => {
    const secret = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE";
    const parsed = parseSshPublicKey(`-----BEGIN OPENSSH PRIVATE KEY-----\n${secret}\n-----END OPENSSH PRIVATE KEY-----`);
    expect(!parsed.ok && parsed.rule).not.toContain(secret);
  });
});
