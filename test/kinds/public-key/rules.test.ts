/** PublicKey's check and diff: pure rules, no API call (the request function is never set up). */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { publicKeyImplementation } from "../../../provider/resources/public-key/implementation";
import type { PublicKeyOutputs } from "../../../provider/resources/public-key/fields";
import { expectedFailure } from "../check-failure";
import { noService } from "../../support/context";

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH quickstart-deploy";
const NO_COMMENT = KEY.replace(" quickstart-deploy", "");
const OTHER_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAYYpAL16innHprXNo3ZNqBBJHY9qV0IrXKVZ42zb8tS other";

const check = (news: Record<string, unknown>) => publicKeyImplementation.check({}, { __provider: "shim", ...news });

describe("PublicKey check", () => {
  it("normalizes the key and keeps the engine's own properties out", async () => {
    const result = await check({ publicKey: `\n${KEY}  \n`, name: " deploy " });
    expect(result).toEqual({ ok: true, inputs: { publicKey: KEY, name: "deploy" } });
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{}, "publicKey", "publicKey is required"],
    [{ publicKey: 42 }, "publicKey", "publicKey must be a string, got a number"],
    [{ publicKey: "ssh-rsa" }, "publicKey", "publicKey must have base64 key data after the key type ssh-rsa"],
    [{ publicKey: "hello" }, "publicKey", "publicKey must start with a key type"],
    [{ publicKey: KEY, name: "" }, "name", "name must have at least 1 character(s)"],
    [{ publicKey: KEY, name: "x".repeat(256) }, "name", "name must have at most 255 characters"],
    [{ publicKey: KEY, name: "a\u0007b" }, "name", "name must not contain control characters"],
    [{ publicKey: NO_COMMENT }, "name", "name is required when publicKey has no comment"],
    [{ publicKey: KEY, pubKey: KEY }, "pubKey", "pubKey is not an input of this resource"],
    [{ publicKey: KEY, importId: "abc" }, "importId", 'importId must be the id of an existing object, a positive integer such as "42"'],
    [{ publicKey: KEY, importId: "042" }, "importId", "importId must be the id of an existing object"],
    [{ publicKey: KEY, importId: -3 }, "importId", "importId must be the id of an existing object"],
    [
      { publicKey: KEY, importId: null },
      "importId",
      'importId must be the id of an existing object, a positive integer such as "42" (a string or a number), got null',
    ],
  ])("fails %j on %s", async (inputs, property, reason) => {
    const result = await check(inputs);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.failures).toContainEqual(expectedFailure(inputs, property, reason));
  });

  it("takes importId as a string or a number, kept as the id's digits", async () => {
    expect(await check({ publicKey: KEY, importId: "12" })).toEqual({ ok: true, inputs: { publicKey: KEY, importId: "12" } });
    expect(await check({ publicKey: KEY, importId: 12 })).toEqual({ ok: true, inputs: { publicKey: KEY, importId: "12" } });
  });

  it("refuses a private key without naming a property, so the engine does not print its value", async () => {
    const secret = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ";
    const result = await check({ publicKey: `-----BEGIN OPENSSH PRIVATE KEY-----\n${secret}\n-----END OPENSSH PRIVATE KEY-----` });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^publicKey must be a public key; this looks like a private key/) },
    ]);
    expect(JSON.stringify(!result.ok && result.failures)).not.toContain(secret);
  });

  it("leaves values unknown during a preview to the update", async () => {
    const result = await check({ publicKey: pulumi.runtime.unknownValue });
    expect(result.ok).toBe(true);
    const importing = { publicKey: KEY, importId: pulumi.runtime.unknownValue };
    expect(await check(importing)).toEqual({ ok: true, inputs: importing });
  });
});

describe("PublicKey diff", () => {
  const olds: PublicKeyOutputs = {
    publicKey: KEY,
    name: "quickstart-deploy",
    fingerprint: "da:b7:da:4e:f8:9f:e5:a4:e5:50:a8:df:a1:b4:b5:93",
    comment: "quickstart-deploy",
    createdAt: "2026-11-21T00:00:00Z",
    // Recorded before keys recorded their user: the diff asks the service nothing.
    userId: undefined,
  };

  it("sees no change when the name is left to default to the comment", async () => {
    expect(await publicKeyImplementation.diff("1", olds, { publicKey: KEY }, noService)).toMatchObject({ changes: false, replaces: [] });
  });

  it("replaces on a new name, deleting first because the same key cannot exist twice", async () => {
    expect(await publicKeyImplementation.diff("1", olds, { publicKey: KEY, name: "renamed" }, noService)).toMatchObject({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: true,
    });
  });

  it("replaces on a new key, creating the new one first", async () => {
    expect(await publicKeyImplementation.diff("1", olds, { publicKey: OTHER_KEY, name: "quickstart-deploy" }, noService)).toMatchObject({
      changes: true,
      replaces: ["publicKey"],
      deleteBeforeReplace: false,
    });
  });

  it("ignores importId, which only matters when the key is created", async () => {
    expect(await publicKeyImplementation.diff("1", olds, { publicKey: KEY, importId: "1" }, noService)).toMatchObject({ changes: false, replaces: [] });
    expect(await publicKeyImplementation.diff("1", { ...olds, importId: "1" }, { publicKey: KEY }, noService)).toMatchObject({ changes: false, replaces: [] });
  });

  it("reports a change when the new key is not known yet", async () => {
    const diff = await publicKeyImplementation.diff("1", olds, { publicKey: pulumi.runtime.unknownValue }, noService);
    expect(diff.changes).toBe(true);
    expect(diff.replaces).toContain("publicKey");
  });
});
