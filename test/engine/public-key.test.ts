/**
 * PublicKey through the real engine against the local service: up, an unchanged preview and
 * refresh, a key deleted out of band, destroy; and what the state file holds.
 */
import { createHash, generateKeyPairSync } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { PublicKey } from "pulumi-etl";
import { createTestStack, type TestStack } from "../support/engine";
import { startLocalService, type LocalService } from "../support/service";

function ed25519PublicKeyLine(comment: string): { line: string; fingerprint: string } {
  const der = generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" });
  const raw = der.subarray(der.length - 32);
  const blob = Buffer.concat([sshString(Buffer.from("ssh-ed25519")), sshString(raw)]);
  const fingerprint = createHash("md5").update(blob).digest("hex").match(/../g)!.join(":");
  return { line: `ssh-ed25519 ${blob.toString("base64")} ${comment}`, fingerprint };
}

/** The SSH wire format's string: a 32-bit big-endian length, then the bytes. */
function sshString(bytes: Buffer): Buffer {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(bytes.length, 0);
  return Buffer.concat([prefix, bytes]);
}

/** Every file under a directory, concatenated: what a leak search must cover. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

describe("PublicKey on the real engine", { timeout: 180_000 }, () => {
  let service: LocalService;
  let test: TestStack;
  const key = ed25519PublicKeyLine("ci@example.com");
  const cliOutput: string[] = [];
  const onOutput = (text: string) => cliOutput.push(text);

  const serviceKeys = async () => (await service.state()).accounts[0].publicKeys as Array<{ id: number; fingerprint: string; name: string }>;
  const stateResources = async () => (await test.stack.exportStack()).deployment.resources ?? [];
  const keyInState = async () => (await stateResources()).find((r: any) => r.type === "pulumi-nodejs:dynamic/etl:PublicKey");

  beforeAll(async () => {
    service = await startLocalService();
    test = await createTestStack("public-key", async () => {
      // A trailing newline, as read from a .pub file, must not matter.
      const deployKey = new PublicKey("deploy", { publicKey: `${key.line}\n`, name: "ci deploy key" });
      return { id: deployKey.id, fingerprint: deployKey.fingerprint, name: deployKey.name, comment: deployKey.comment };
    }, service);
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  let outputs: OutputMap;

  it("up creates the key in the service", async () => {
    const result = await test.stack.up({ onOutput });
    expect(result.summary.resourceChanges).toMatchObject({ create: 2 });
    outputs = result.outputs;
    expect(outputs.fingerprint.value).toBe(key.fingerprint);
    expect(outputs.name.value).toBe("ci deploy key");
    expect(outputs.comment.value).toBe("ci@example.com");
    const keys = await serviceKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: Number(outputs.id.value), fingerprint: key.fingerprint, name: "ci deploy key" });
  });

  it("an unchanged preview proposes nothing and calls no write endpoint", async () => {
    await service.resetRequests();
    const preview = await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(preview.changeSummary).toEqual({ same: 2 });
    const writes = (await service.requests()).filter((r) => WRITE_METHODS.has(r.method));
    expect(writes).toEqual([]);
  });

  it("refresh finds no change", async () => {
    const refresh = await test.stack.refresh({ expectNoChanges: true, onOutput });
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
  });

  it("a key deleted out of band is dropped by refresh and recreated by up", async () => {
    const deleted = await service.api("DELETE", `/user/keys/${outputs.id.value}`);
    expect(deleted.status).toBe(200);

    const refresh = await test.stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    expect(await keyInState()).toBeUndefined();

    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    const keys = await serviceKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0]!.fingerprint).toBe(key.fingerprint);
    expect(String(keys[0]!.id)).toBe(up.outputs.id.value);
    expect(up.outputs.id.value).not.toBe(outputs.id.value);
  });

  it("the state file holds neither the API key nor provider code beyond the shim", async () => {
    // The checkpoint as stored; `exportStack()` would decrypt secrets (it passes --show-secrets).
    const stateFile = path.join(test.workDir, "backend", ".pulumi", "stacks", "etl-public-key", "test.json");
    const raw = readFileSync(stateFile, "utf8");
    expect(raw).not.toContain(service.apiKey);
    const checkpoint = JSON.parse(raw).checkpoint;
    const providerResource = checkpoint.latest.resources.find((r: any) => r.type === "pulumi:providers:pulumi-nodejs");
    expect(providerResource.inputs["etl:apiKey"]).toHaveProperty("ciphertext");

    const resource = checkpoint.latest.resources.find((r: any) => r.type === "pulumi-nodejs:dynamic/etl:PublicKey");
    const serialized: string = resource.inputs.__provider;
    expect(serialized).toBe(resource.outputs.__provider);
    expect(serialized).toContain('require("pulumi-etl/runtime")');
    // The shim only: no implementation, no captured modules.
    expect(serialized).not.toMatch(/checkWithSchema|parseSshPublicKey|undici|zod/);
    expect(serialized.length).toBeLessThan(3_000);
    console.log(`serialized provider: ${serialized.length} bytes, stored twice (inputs and outputs); resource state ${JSON.stringify(resource).length} bytes`);
  });

  it("destroy leaves the service with no key", async () => {
    const destroy = await test.stack.destroy({ onOutput });
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
    expect(await serviceKeys()).toEqual([]);
  });

  it("the API key appears nowhere in the stack's files or the CLI's output", () => {
    expect(allText(test.workDir)).not.toContain(service.apiKey);
    expect(cliOutput.join("")).not.toContain(service.apiKey);
  });
});
