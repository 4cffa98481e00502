/** The one OpenSSH public key parser that the provider and the emulator share. */
import { describe, expect, it } from "vitest";
import { parseSshPublicKey, SSH_KEY_TYPES } from "../../contract/ssh-public-key";
import { ecdsaP256Key, ed25519Key, rawKeyLine, rsaKey } from "../emulator/helpers";

describe("parseSshPublicKey", () => {
  it("parses real ed25519, RSA and ECDSA keys", () => {
    for (const [type, key] of [
      ["ssh-ed25519", ed25519Key("a b c")],
      ["ssh-rsa", rsaKey("a b c")],
      ["ecdsa-sha2-nistp256", ecdsaP256Key("a b c")],
    ] as const) {
      const result = parseSshPublicKey(key.line);
      expect(result).toMatchObject({ ok: true, key: { type, fingerprint: key.fingerprint, comment: "a b c" } });
    }
  });

  it("matches the fingerprint ssh-keygen prints for a known key", () => {
    const line = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGQlC66EvxONK3dDJbboHohctEoD0GLD2uBECO2Rx130 dana@laptop";
    expect(parseSshPublicKey(line)).toMatchObject({ ok: true, key: { fingerprint: "2f:5b:61:9d:1e:42:fe:04:86:d5:b9:3c:7f:98:69:5f" } });
  });

  it("returns an empty comment when there is none", () => {
    expect(parseSshPublicKey(ed25519Key().line)).toMatchObject({ ok: true, key: { comment: "" } });
  });

  it("accepts the security-key and other listed types with well-formed blobs", () => {
    const point = Buffer.alloc(65, 4);
    const lines = {
      "ecdsa-sha2-nistp384": rawKeyLine("ecdsa-sha2-nistp384", ["ecdsa-sha2-nistp384", "nistp384", Buffer.alloc(97, 4)]),
      "ecdsa-sha2-nistp521": rawKeyLine("ecdsa-sha2-nistp521", ["ecdsa-sha2-nistp521", "nistp521", Buffer.alloc(133, 4)]),
      "sk-ssh-ed25519@openssh.com": rawKeyLine("sk-ssh-ed25519@openssh.com", ["sk-ssh-ed25519@openssh.com", Buffer.alloc(32, 1), "ssh:"]),
      "sk-ecdsa-sha2-nistp256@openssh.com": rawKeyLine("sk-ecdsa-sha2-nistp256@openssh.com", ["sk-ecdsa-sha2-nistp256@openssh.com", "nistp256", point, "ssh:"]),
    };
    for (const [type, line] of Object.entries(lines)) {
      expect(parseSshPublicKey(line), type).toMatchObject({ ok: true, key: { type } });
    }
    expect(SSH_KEY_TYPES).toHaveLength(7);
  });

  it.each([
    ["", "must start with a key type such as ssh-ed25519"],
    ["ssh-ed448 AAAA", "must start with a key type such as ssh-ed25519"],
    ["ssh-rsa", "must have base64 key data after the key type ssh-rsa"],
    ["ssh-rsa not*base64", "is not valid base64"],
    ["ssh-rsa AAAA", "must hold a ssh-rsa key: the base64 part does not match its declared type"],
    ["ssh-ed25519 AAAA\nssh-ed25519 AAAA", "must be a single line"],
  ])("rejects %j", (line, rule) => {
    expect(parseSshPublicKey(line)).toEqual({ ok: false, rule });
  });

  it("rejects a blob whose type differs from the declared one", () => {
    const result = parseSshPublicKey(`ssh-rsa ${ed25519Key().base64}`);
    expect(result).toEqual({ ok: false, rule: "must hold a ssh-rsa key: the base64 part does not match its declared type" });
  });

  it("rejects blobs with missing, extra or wrong fields", () => {
    expect(parseSshPublicKey(rawKeyLine("ssh-rsa", ["ssh-rsa", "e"]))).toMatchObject({ ok: false, rule: expect.stringMatching(/truncated or malformed/) });
    expect(parseSshPublicKey(rawKeyLine("ssh-ed25519", ["ssh-ed25519", Buffer.alloc(32), "extra"]))).toMatchObject({ ok: false });
    expect(parseSshPublicKey(rawKeyLine("ecdsa-sha2-nistp256", ["ecdsa-sha2-nistp256", "nistp384", Buffer.alloc(65, 4)]))).toEqual({
      ok: false,
      rule: "must hold a well-formed ecdsa-sha2-nistp256 key: the curve must be nistp256",
    });
  });

  it("refuses an ed25519 key whose body is not 32 bytes, which preview and the service alike refuse", () => {
    expect(parseSshPublicKey(rawKeyLine("ssh-ed25519", ["ssh-ed25519", Buffer.alloc(16, 7)]))).toEqual({
      ok: false,
      rule: "must hold a well-formed ssh-ed25519 key: the ed25519 key must be 32 bytes",
    });
  });

  describe("as OpenSSH judges keys", () => {
    const rsaWith = (exponent: Buffer, modulus: Buffer) => rawKeyLine("ssh-rsa", ["ssh-rsa", exponent, modulus]);
    const modulusOf = (bits: number) => Buffer.concat([Buffer.from([0x00, 0x80]), Buffer.alloc(bits / 8 - 1, 0x01)]);
    const wellFormed = (type: string, problem: string) => ({ ok: false, rule: `must hold a well-formed ${type} key: ${problem}` });

    it("refuses RSA moduli under 1024 bits and over 16384, and takes 1024", () => {
      expect(parseSshPublicKey(rsaKey("small", 512).line)).toEqual(wellFormed("ssh-rsa", "the modulus must be at least 1024 bits, this one is 512"));
      expect(parseSshPublicKey(rsaWith(Buffer.from([1, 0, 1]), modulusOf(1016)))).toEqual(
        wellFormed("ssh-rsa", "the modulus must be at least 1024 bits, this one is 1016"),
      );
      expect(parseSshPublicKey(rsaWith(Buffer.from([1, 0, 1]), modulusOf(16392)))).toEqual(
        wellFormed("ssh-rsa", "the modulus must be at most 16384 bits, this one is 16392"),
      );
      expect(parseSshPublicKey(rsaKey("edge", 1024).line)).toMatchObject({ ok: true });
    });

    it("refuses an RSA exponent that is even, or under 3", () => {
      for (const exponent of [[1, 0, 0], [1], [2], []]) {
        expect(parseSshPublicKey(rsaWith(Buffer.from(exponent), modulusOf(2048))), String(exponent)).toEqual(
          wellFormed("ssh-rsa", "the exponent must be odd and at least 3"),
        );
      }
      expect(parseSshPublicKey(rsaWith(Buffer.from([3]), modulusOf(2048)))).toMatchObject({ ok: true });
    });

    it("refuses DSA keys, however well formed", () => {
      expect(parseSshPublicKey(rawKeyLine("ssh-dss", ["ssh-dss", "p", "q", "g", "y"], "old"))).toEqual({
        ok: false,
        rule: "must not be a DSA (ssh-dss) key: OpenSSH no longer accepts them; use ssh-ed25519, ECDSA or RSA of at least 1024 bits",
      });
    });

    it("refuses ECDSA points of another size than the curve's, and curves that differ from the type", () => {
      expect(parseSshPublicKey(rawKeyLine("ecdsa-sha2-nistp384", ["ecdsa-sha2-nistp384", "nistp384", Buffer.alloc(65, 4)]))).toEqual(
        wellFormed("ecdsa-sha2-nistp384", "the nistp384 point must be 97 bytes, uncompressed (0x04 first)"),
      );
      expect(parseSshPublicKey(rawKeyLine("ecdsa-sha2-nistp256", ["ecdsa-sha2-nistp256", "nistp256", Buffer.alloc(33, 2)]))).toEqual(
        wellFormed("ecdsa-sha2-nistp256", "the nistp256 point must be 65 bytes, uncompressed (0x04 first)"),
      );
      expect(
        parseSshPublicKey(rawKeyLine("sk-ecdsa-sha2-nistp256@openssh.com", ["sk-ecdsa-sha2-nistp256@openssh.com", "nistp521", Buffer.alloc(65, 4), "ssh:"])),
      ).toEqual(wellFormed("sk-ecdsa-sha2-nistp256@openssh.com", "the curve must be nistp256"));
      expect(parseSshPublicKey(ecdsaP256Key().line)).toMatchObject({ ok: true });
    });
  });
});
