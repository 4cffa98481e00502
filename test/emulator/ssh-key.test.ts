import { describe, expect, it } from "vitest";
import { parseSshPublicKey, SUPPORTED_KEY_TYPES } from "../../emulator/ssh-key";
import { ecdsaP256Key, ed25519Key, rawKeyLine, rsaKey } from "./helpers";

describe("parseSshPublicKey", () => {
  it("parses real ed25519, RSA and ECDSA keys", () => {
    for (const [type, key] of [
      ["ssh-ed25519", ed25519Key("a b c")],
      ["ssh-rsa", rsaKey("a b c")],
      ["ecdsa-sha2-nistp256", ecdsaP256Key("a b c")],
    ] as const) {
      const result = parseSshPublicKey(key.line);
      expect(result).toMatchObject({ ok: true, type, fingerprint: key.fingerprint, comment: "a b c" });
    }
  });

  it("matches the fingerprint ssh-keygen prints for a known key", () => {
    const line = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGQlC66EvxONK3dDJbboHohctEoD0GLD2uBECO2Rx130 dana@laptop";
    expect(parseSshPublicKey(line)).toMatchObject({ ok: true, fingerprint: "2f:5b:61:9d:1e:42:fe:04:86:d5:b9:3c:7f:98:69:5f" });
  });

  it("returns an empty comment when there is none", () => {
    expect(parseSshPublicKey(ed25519Key().line)).toMatchObject({ ok: true, comment: "" });
  });

  it("accepts the security-key and other listed types with well-formed blobs", () => {
    const point = Buffer.alloc(65, 4);
    const lines = {
      "ssh-dss": rawKeyLine("ssh-dss", ["ssh-dss", "p", "q", "g", "y"]),
      "ecdsa-sha2-nistp384": rawKeyLine("ecdsa-sha2-nistp384", ["ecdsa-sha2-nistp384", "nistp384", point]),
      "ecdsa-sha2-nistp521": rawKeyLine("ecdsa-sha2-nistp521", ["ecdsa-sha2-nistp521", "nistp521", point]),
      "sk-ssh-ed25519@openssh.com": rawKeyLine("sk-ssh-ed25519@openssh.com", ["sk-ssh-ed25519@openssh.com", Buffer.alloc(32, 1), "ssh:"]),
      "sk-ecdsa-sha2-nistp256@openssh.com": rawKeyLine("sk-ecdsa-sha2-nistp256@openssh.com", [
        "sk-ecdsa-sha2-nistp256@openssh.com",
        "nistp256",
        point,
        "ssh:",
      ]),
    };
    for (const [type, line] of Object.entries(lines)) {
      expect(parseSshPublicKey(line), type).toMatchObject({ ok: true, type });
    }
    expect(SUPPORTED_KEY_TYPES).toHaveLength(8);
  });

  it.each([
    ["", "public_key must start with a key type such as ssh-ed25519"],
    ["ssh-ed448 AAAA", "public_key must start with a key type such as ssh-ed25519"],
    ["ssh-rsa", "public_key must have base64 key data after the key type ssh-rsa"],
    ["ssh-rsa not*base64", "public_key is not valid base64"],
    ["ssh-rsa AAAA", "public_key blob does not match its declared type ssh-rsa"],
  ])("rejects %j", (line, reason) => {
    expect(parseSshPublicKey(line)).toEqual({ ok: false, reason });
  });

  it("rejects a blob whose type differs from the declared one", () => {
    const result = parseSshPublicKey(`ssh-rsa ${ed25519Key().base64}`);
    expect(result).toEqual({ ok: false, reason: "public_key blob does not match its declared type ssh-rsa" });
  });

  it("rejects blobs with missing, extra or wrong fields", () => {
    expect(parseSshPublicKey(rawKeyLine("ssh-rsa", ["ssh-rsa", "e"]))).toMatchObject({ ok: false, reason: expect.stringMatching(/truncated or malformed/) });
    expect(parseSshPublicKey(rawKeyLine("ssh-ed25519", ["ssh-ed25519", Buffer.alloc(32), "extra"]))).toMatchObject({ ok: false });
    expect(parseSshPublicKey(rawKeyLine("ecdsa-sha2-nistp256", ["ecdsa-sha2-nistp256", "nistp384", "Q"]))).toEqual({
      ok: false,
      reason: "public_key blob is malformed for key type ecdsa-sha2-nistp256: the curve must be nistp256",
    });
  });
});
