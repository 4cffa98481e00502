/**
 * Keys belong to the user whose API key made them. With etl:apiKey switched to another user's
 * key of the same account, the service answers 404 for every key of the stack: refresh and up
 * stop with a message naming both users and what to do, the state keeps the keys, and the
 * service keeps exactly the keys it had. Switched back, everything works as before. On the
 * plugin.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, failureOf, type TestStack } from "../../support/engine";
import { ed25519PublicKeyLine } from "../../support/keys";
import { startTestEmulator, type Emulator } from "../../support/service";
import { declare, typeOf, type Surface } from "../../support/surfaces";

const OTHER_USER = { id: 71, name: "Bob Other", email: "bob@example.com", apiKey: `other-user-key-${process.pid}` };

// One surface, the plugin; what each surface adds is proven for every kind on both in test/engine (docs/development.md).
const surface: Surface = "plugin";

describe("public keys under another user's API key, on the plugin", { timeout: 300_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  const lines = [ed25519PublicKeyLine(`deploy-${surface}@example.com`), ed25519PublicKeyLine(`ci-${surface}@example.com`)];

  const serviceKeys = async () =>
    ((await service.state()).accounts[0].publicKeys as Array<{ id: number; userId: number; name: string }>)
      .map((key) => ({ id: String(key.id), userId: key.userId, name: key.name }))
      .sort((a, b) => a.id.localeCompare(b.id));
  const keysInState = async () =>
    ((await test.stack.exportStack()).deployment.resources ?? [])
      .filter((r: any) => r.type === typeOf(surface, "PublicKey"))
      .map((r: any) => ({ id: String(r.id), userId: r.outputs.userId, name: r.outputs.name }))
      .sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id));
  const useKeyOf = (apiKey: string) => test.stack.setConfig("etl:apiKey", { value: apiKey, secret: true });

  let original: Array<{ id: string; userId: number; name: string }> = [];

  beforeAll(async () => {
    service = await startTestEmulator({ users: [OTHER_USER] });
    test = await createTestStack(
      `key-owner-${surface}`,
      async () => {
        const keys = lines.map((key, i) => declare(surface, "PublicKey", `key-${i}`, { publicKey: key.line }));
        return { userIds: keys.map((key) => key.userId) };
      },
      service,
      {},
      { plugin: true },
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("up records the user each key belongs to", async () => {
    const result = await test.stack.up();
    expect(result.outputs.userIds!.value).toEqual([70, 70]);
    original = await serviceKeys();
    expect(original.map((key) => key.userId)).toEqual([70, 70]);
    expect(await keysInState()).toEqual(original);
  });

  /** Names both users and what to do; `listed`: the keys it names (an up stops at the first). */
  const expectOtherUserMessage = (message: string, listed: "every key" | "a key") => {
    const named = original.filter(({ id, name }) => message.includes(`public key ${id} "${name}" belongs to user 70 (test@example.com)`));
    expect(named).toEqual(listed === "every key" ? original : [expect.anything()]);
    expect(message).toContain("the provider's API key (etl:apiKey) is now user 71's (bob@example.com)");
    expect(message).toContain("set etl:apiKey back to user 70's key");
    expect(message).toContain("pulumi state delete <its URN>");
    if (listed === "a key") expect(message).toContain("`pulumi refresh --run-program` lists every key of the stack");
    expect(message).not.toContain(OTHER_USER.apiKey);
    expect(message).not.toMatch(/\n\s+at /);
  };

  it("up under another user's key stops, naming both users and each key, and makes no key", async () => {
    await useKeyOf(OTHER_USER.apiKey);
    await service.resetRequests();
    expectOtherUserMessage(await failureOf(test.stack.up()), "a key");
    expect(await service.writeRequests()).toEqual([]);
    expect(await serviceKeys()).toEqual(original);
    expect(await keysInState()).toEqual(original);
  });

  it("preview under another user's key stops likewise, before any write", async () => {
    await service.resetRequests();
    expectOtherUserMessage(await failureOf(test.stack.preview()), "a key");
    expect(await service.writeRequests()).toEqual([]);
    expect(await keysInState()).toEqual(original);
  });

  it.each([
    ["refresh", () => test.stack.refresh()],
    ["refresh --run-program", () => test.stack.refresh({ runProgram: true })],
    ["up --refresh", () => test.stack.up({ refresh: true })],
  ])("%s under another user's key stops likewise, and drops nothing", async (_name, operation) => {
    await service.resetRequests();
    expectOtherUserMessage(await failureOf(operation()), "every key");
    expect(await service.writeRequests()).toEqual([]);
    expect(await keysInState()).toEqual(original);
    expect(await serviceKeys()).toEqual(original);
  });

  it("with the keys' own user's API key again, up and refresh find nothing to do", async () => {
    await useKeyOf(service.apiKey);
    await service.resetRequests();
    await test.stack.up();
    await test.stack.refresh({ expectNoChanges: true });
    await test.stack.preview({ expectNoChanges: true });
    expect(await service.writeRequests()).toEqual([]);
    expect(await keysInState()).toEqual(original);
    await test.stack.destroy();
    expect(await serviceKeys()).toEqual([]);
  });
});
