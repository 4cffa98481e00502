/**
 * PublicKey through the real engine against the emulator: up, an unchanged preview and
 * refresh, a rename (a replacement), a key deleted out of band, adoption by importId, destroy;
 * what the state file holds, and the API calls each operation costs.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { PublicKey, type PublicKeyArgs } from "pulumi-etl";
import { createTestStack, type TestStack, failureOf } from "../../support/engine";
import { ed25519PublicKeyLine } from "../../support/keys";
import { SETTINGS_PROOF_CALL, startTestEmulator, type Emulator } from "../../support/service";

/** Every file under a directory, concatenated: what a leak search must cover. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
}

describe("PublicKey on the real engine", { timeout: 180_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  const key = ed25519PublicKeyLine("ci@example.com");
  const cliOutput: string[] = [];
  const onOutput = (text: string) => cliOutput.push(text);

  const serviceKeys = async () => (await service.state()).accounts[0].publicKeys as Array<{ id: number; fingerprint: string; name: string }>;
  const stateResources = async () => (await test.stack.exportStack()).deployment.resources ?? [];
  const keysInState = async () => (await stateResources()).filter((r: any) => r.type === "pulumi-nodejs:dynamic/etl:PublicKey");
  const keyInState = async () => (await keysInState())[0];
  /** The API calls since the last reset, as `METHOD /path` below the account's base address. */
  const calls = () => service.calls();

  // What the program declares; steps change these before running the engine.
  let deployKeyName = "ci deploy key";
  let adoptions: Record<string, PublicKeyArgs> = {};

  beforeAll(async () => {
    service = await startTestEmulator();
    test = await createTestStack(
      "public-key",
      async () => {
        // A trailing newline, as read from a .pub file, must not matter.
        const deployKey = new PublicKey("deploy", { publicKey: `${key.line}\n`, name: deployKeyName });
        const adopted = Object.entries(adoptions).map(([name, args]) => new PublicKey(name, args));
        return {
          id: deployKey.id,
          fingerprint: deployKey.fingerprint,
          name: deployKey.name,
          comment: deployKey.comment,
          adoptedIds: adopted.map((k) => k.id),
        };
      },
      service,
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  let outputs: OutputMap;

  it("up creates the key in the service in one call; whose API key made it, the settings' proof already told", async () => {
    await service.resetRequests();
    const result = await test.stack.up({ onOutput });
    expect(result.summary.resourceChanges).toMatchObject({ create: 2 });
    // The key records its user: for the account owner's key, the account the proof read names them.
    expect(await service.allCalls()).toEqual([SETTINGS_PROOF_CALL, "POST /user/keys"]);
    outputs = result.outputs;
    expect(outputs.fingerprint.value).toBe(key.fingerprint);
    expect(outputs.name.value).toBe("ci deploy key");
    expect(outputs.comment.value).toBe("ci@example.com");
    const keys = await serviceKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: Number(outputs.id.value), fingerprint: key.fingerprint, name: "ci deploy key" });
  });

  it("an unchanged preview proposes nothing, its one call the settings' proof, which also tells whose API key they hold", async () => {
    await service.resetRequests();
    const preview = await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(await service.writeRequests()).toEqual([]);
    // Once per provider process: a key is managed only under its own user's API key.
    expect(await service.allCalls()).toEqual([SETTINGS_PROOF_CALL]);
  });

  it("refresh finds no change, reading the key once", async () => {
    await service.resetRequests();
    const refresh = await test.stack.refresh({ expectNoChanges: true, onOutput });
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
    expect(await calls()).toEqual([`GET /user/keys/${outputs.id.value}`]);
  });

  it("a new name replaces the key, deleting the old one first since the key stays the same", async () => {
    deployKeyName = "ci deploy key (renamed)";
    await service.resetRequests();
    const preview = await test.stack.preview({ onOutput });
    expect(preview.changeSummary).toEqual({ replace: 1, same: 1 });
    expect(await service.writeRequests()).toEqual([]);

    await service.resetRequests();
    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(await calls()).toEqual([`DELETE /user/keys/${outputs.id.value}`, "POST /user/keys"]);
    expect(up.outputs.id.value).not.toBe(outputs.id.value);
    const keys = await serviceKeys();
    expect(keys).toEqual([expect.objectContaining({ id: Number(up.outputs.id.value), name: "ci deploy key (renamed)", fingerprint: key.fingerprint })]);
    outputs = up.outputs;
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

  it("the state file holds neither the API key nor any provider code", async () => {
    // The checkpoint as stored; `exportStack()` would decrypt secrets (it passes --show-secrets).
    const stateFile = path.join(test.workDir, "backend", ".pulumi", "stacks", "etl-public-key", "test.json");
    const raw = readFileSync(stateFile, "utf8");
    expect(raw).not.toContain(service.apiKey);
    const checkpoint = JSON.parse(raw).checkpoint;
    const providerResource = checkpoint.latest.resources.find((r: any) => r.type === "pulumi:providers:pulumi-nodejs");
    expect(providerResource.inputs["etl:apiKey"]).toHaveProperty("ciphertext");

    // The serialized provider is one line that loads the installed package, in inputs and outputs.
    const resource = checkpoint.latest.resources.find((r: any) => r.type === "pulumi-nodejs:dynamic/etl:PublicKey");
    const oneLine = 'exports.handler = () => require("pulumi-etl/runtime").providerFor("PublicKey");\n';
    expect(resource.inputs.__provider).toBe(oneLine);
    expect(resource.outputs.__provider).toBe(oneLine);
    // The resource's source position is the program's line, not the provider's class.
    expect(resource.sourcePosition).toMatch(/public-key\/engine\.test\.ts#\d+/);
  });

  describe("adoption by importId", () => {
    const handMade = ed25519PublicKeyLine("laptop@example.com");
    let handMadeId: string;

    beforeAll(async () => {
      const made = await service.api("POST", "/user/keys", { public_key: handMade.line, name: "made by hand" });
      expect(made.status).toBe(201);
      handMadeId = String(made.body.id);
    });

    it("fails, keeping nothing, when the name or the key differ from the existing key's", async () => {
      const otherKey = ed25519PublicKeyLine("other@example.com");
      adoptions = {
        "wrong-name": { publicKey: handMade.line, name: "another name", importId: handMadeId },
        "wrong-key": { publicKey: otherKey.line, name: "made by hand", importId: handMadeId },
      };
      // Both are tried: without continueOnError the engine starts no new step after the first failure.
      const output = await failureOf(test.stack.up({ onOutput, continueOnError: true }));
      expect(output).toContain(`cannot adopt public key ${handMadeId}: name is "another name", the key's is "made by hand"; the API cannot rename keys`);
      expect(output).toContain(
        `cannot adopt public key ${handMadeId}: publicKey has fingerprint ${otherKey.fingerprint}, the key's is ${handMade.fingerprint}; keys cannot be changed`,
      );
      expect(await keysInState()).toHaveLength(1);
      expect(await serviceKeys()).toHaveLength(2);
    });

    it("takes over a matching key with one read, and then nothing is left to change", async () => {
      adoptions = { laptop: { publicKey: handMade.line, name: "made by hand", importId: handMadeId } };
      await service.resetRequests();
      const up = await test.stack.up({ onOutput });
      expect(up.summary.resourceChanges).toMatchObject({ create: 1, same: 2 });
      expect(await calls()).toEqual([`GET /user/keys/${handMadeId}`]);
      expect(up.outputs.adoptedIds.value).toEqual([handMadeId]);
      expect(await serviceKeys()).toHaveLength(2);

      await service.resetRequests();
      const preview = await test.stack.preview({ expectNoChanges: true, onOutput });
      expect(preview.changeSummary).toEqual({ same: 3 });
      expect(await service.writeRequests()).toEqual([]);
      expect(await calls()).toEqual([]);
    });
  });

  it("destroy leaves the service with no key, one call per key", async () => {
    await service.resetRequests();
    const destroy = await test.stack.destroy({ onOutput });
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 3 });
    const [proof, ...deletes] = await service.allCalls();
    expect(proof).toBe(SETTINGS_PROOF_CALL);
    expect(deletes).toHaveLength(2);
    expect(deletes.every((call) => call.startsWith("DELETE /user/keys/"))).toBe(true);
    expect(await serviceKeys()).toEqual([]);
  });

  it("the API key appears nowhere in the stack's files or the CLI's output", () => {
    expect(allText(test.workDir)).not.toContain(service.apiKey);
    expect(cliOutput.join("")).not.toContain(service.apiKey);
  });
});
