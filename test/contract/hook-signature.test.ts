/** The signature recipe is one function, shared by the emulator, the provider and receivers. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hookSignature, isValidHookSignature } from "../../contract/hook-signature";

const SALT = "5f".repeat(32);
const NOTIFICATION = { hook_id: 12, event: "job.failed", url: "https://ci.example/hooks/etl" };

describe("hookSignature", () => {
  it("is the SHA-1 hex of hook id, event, url and salt, in that order, with no separator", () => {
    const expected = createHash("sha1").update(`12job.failedhttps://ci.example/hooks/etl${SALT}`).digest("hex");
    expect(hookSignature(SALT, NOTIFICATION)).toBe(expected);
    expect(hookSignature(SALT, NOTIFICATION)).toMatch(/^[0-9a-f]{40}$/);
  });

  it("changes with each part it covers", () => {
    const base = hookSignature(SALT, NOTIFICATION);
    expect(hookSignature("00".repeat(32), NOTIFICATION)).not.toBe(base);
    expect(hookSignature(SALT, { ...NOTIFICATION, hook_id: 13 })).not.toBe(base);
    expect(hookSignature(SALT, { ...NOTIFICATION, event: "job.completed" })).not.toBe(base);
    expect(hookSignature(SALT, { ...NOTIFICATION, url: "https://ci.example/other" })).not.toBe(base);
  });
});

describe("isValidHookSignature", () => {
  it("accepts the signature (in any case, surrounding space ignored) and refuses any other", () => {
    const signature = hookSignature(SALT, NOTIFICATION);
    expect(isValidHookSignature(signature, SALT, NOTIFICATION)).toBe(true);
    expect(isValidHookSignature(` ${signature.toUpperCase()} `, SALT, NOTIFICATION)).toBe(true);
    expect(isValidHookSignature(signature.slice(0, -1), SALT, NOTIFICATION)).toBe(false);
    const lastCharacterChanged = signature.slice(0, -1) + (signature.endsWith("0") ? "1" : "0");
    expect(isValidHookSignature(lastCharacterChanged, SALT, NOTIFICATION)).toBe(false);
    expect(isValidHookSignature("", SALT, NOTIFICATION)).toBe(false);
    expect(isValidHookSignature(signature, "00".repeat(32), NOTIFICATION)).toBe(false);
  });
});
