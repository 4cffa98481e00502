/**
 * Two stacks asking for the same names and the same key, one of them under injected 500s: the
 * unlucky stack's reconciliation finds the other stack's objects in its window, and must leave
 * them alone, since they differ from what it sent. Neither stack ever updates, adopts or deletes
 * the other's objects.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, failureOf, type TestStack } from "../support/engine";
import { startTestEmulator, type Emulator } from "../support/service";
import { freshEd25519Key } from "../support/soak";
import { declare, kindOfType, SURFACES, type Surface } from "../support/surfaces";

const KEY = freshEd25519Key("shared@test");

function program(owner: "a" | "b", surface: Surface) {
  return async () => {
    declare(surface, "ConnectionGroup", "group", { name: "shared-group", description: `stack ${owner}'s` });
    declare(surface, "PublicKey", "key", { publicKey: KEY, name: `stack ${owner}'s key` });
  };
}

describe.each(SURFACES)("two stacks colliding under injected 500s (%s)", { timeout: 240_000 }, (surface) => {
  let service: Emulator;
  let a: TestStack;
  let b: TestStack;
  const account = async () => (await service.state()).accounts[0];
  const resourcesOf = async (test: TestStack) =>
    ((await test.stack.exportStack()).deployment.resources ?? []).filter((r: { type: string }) => kindOfType(r.type) !== undefined);

  beforeAll(async () => {
    service = await startTestEmulator();
    const options = { plugin: surface === "plugin" };
    a = await createTestStack("collide-a", program("a", surface), service, {}, options);
    b = await createTestStack("collide-b", program("b", surface), service, {}, options);
  });

  afterAll(async () => {
    a?.dispose();
    b?.dispose();
    await service?.emulator.close();
  });

  it("stack A, whose creates get 500s just after B made its objects, adopts none of B's", async () => {
    await b.stack.up();
    const [group] = (await account()).connectionGroups;
    const [key] = (await account()).publicKeys;

    await service.faults({ rate: 1, kinds: ["500"], methods: ["POST"], seed: 1 });
    const failure = await failureOf(a.stack.up({ continueOnError: true }));
    await service.faults();
    expect(failure).not.toContain("adopting it");
    expect(failure).toMatch(/connection group create: sent 3 times .* no connection group was created by any of them/);
    expect(await resourcesOf(a)).toEqual([]);
    expect((await account()).connectionGroups).toEqual([expect.objectContaining({ id: group.id, description: "stack b's" })]);
    expect((await account()).publicKeys).toEqual([expect.objectContaining({ id: key.id, name: "stack b's key" })]);
  });

  it("without faults, A is told whose objects are in the way and how to take them over if they were its own", async () => {
    const [group] = (await account()).connectionGroups;
    const [key] = (await account()).publicKeys;
    const failure = await failureOf(a.stack.up({ continueOnError: true }));
    expect(failure).toContain(`a connection group named "shared-group" already exists as connection group ${group.id}`);
    expect(failure).toContain(`a public key with fingerprint ${key.fingerprint} already exists as public key ${key.id}`);
    expect(failure).toContain("Otherwise choose another name");
    expect(await resourcesOf(a)).toEqual([]);
  });

  it("destroying A leaves B's objects, and B still sees no change", async () => {
    await a.stack.destroy();
    expect((await account()).connectionGroups).toHaveLength(1);
    expect((await account()).publicKeys).toHaveLength(1);
    await service.resetRequests();
    await b.stack.preview({ expectNoChanges: true });
    const refresh = await b.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: 3 });
    await b.stack.destroy();
    expect((await account()).connectionGroups).toEqual([]);
  });
});
