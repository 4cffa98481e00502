/**
 * A deployment whose first contact with the service fails before anything is sent: an address
 * that refuses connections (a closed loopback port), tried for the first contact's 15 s at most
 * however long the retry budget, and a host that does not exist, which fails at once. `up` names
 * `etl:apiUrl` and the address; the create was never sent, so it
 * is no unknown outcome, nothing is looked for, and nothing enters the stack. And a 401 names
 * the settings that make the credentials, never the key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, failureOf, type Service, type TestStack } from "../support/engine";
import { startLocalService, startLocalService as start, type LocalService } from "../support/service";
import { declare, SURFACES } from "../support/surfaces";

/** A loopback port nothing listens on: the local service's, once it is closed. */
async function closedAddress(): Promise<string> {
  const gone = await start();
  await gone.emulator.close();
  return gone.url;
}

describe.each(SURFACES)("an address that cannot be reached (%s)", { timeout: 240_000 }, (surface) => {
  const stacks: TestStack[] = [];
  const output: string[] = [];
  const onOutput = (text: string) => output.push(text);

  async function stackAt(service: Service, settings: Record<string, { value: string }> = {}): Promise<TestStack> {
    const test = await createTestStack(
      "unreachable",
      async () => void declare(surface, "Cluster", "main", { nodes: 1 }),
      service,
      {},
      { plugin: surface === "plugin" },
    );
    await test.stack.setAllConfig(settings);
    stacks.push(test);
    return test;
  }

  afterAll(() => {
    for (const test of stacks) test.dispose();
  });

  async function upFailure(url: string, settings: Record<string, { value: string }> = {}): Promise<{ failure: string; test: TestStack }> {
    output.length = 0;
    const test = await stackAt({ url, accountId: "acme-test", apiKey: "unused-key" }, settings);
    return { failure: await failureOf(test.stack.up({ onOutput })), test };
  }

  /** Nothing was looked for, nothing guessed, and the stack holds no cluster. */
  async function expectNothingLookedFor(failure: string, test: TestStack): Promise<void> {
    expect(failure).not.toContain("may or may not");
    expect(failure).not.toContain("outcome is unknown");
    expect(output.join("")).not.toMatch(/looking for what the request made|adopting it|sending it again/);
    const resources = (await test.stack.exportStack()).deployment.resources ?? [];
    expect(resources.filter((r: { urn: string }) => r.urn.endsWith("::main"))).toEqual([]);
  }

  it("a closed port never reached: with the default budget, up fails within the first contact's 15 s, naming etl:apiUrl and the address, without looking for a cluster", async () => {
    const url = await closedAddress();
    const { failure, test } = await upFailure(url);
    expect(failure).toContain(`could not reach ${url} (ECONNREFUSED) for 15 s: nothing was sent; check etl:apiUrl (the connection was refused`);
    await expectNothingLookedFor(failure, test);
  });

  it("a host that does not exist: up fails at once, naming etl:apiUrl and the host, without looking for a cluster", async () => {
    // A short budget: a lookup that cannot be made now (EAI_AGAIN, with no DNS server) is tried for it.
    const { failure, test } = await upFailure("https://nonexistent.invalid", { "etl:retryBudgetSeconds": { value: "3" } });
    expect(failure).toMatch(
      /could not reach https:\/\/nonexistent\.invalid \((ENOTFOUND\)|EAI_AGAIN\) for 3 s): nothing was sent; check etl:apiUrl \(the host name does not resolve/,
    );
    await expectNothingLookedFor(failure, test);
  });
});

describe.each(SURFACES)("a key the service does not accept (%s)", { timeout: 240_000 }, (surface) => {
  let service: LocalService;
  let test: TestStack;
  const wrongKey = "wrong-key-7f3a9c";

  beforeAll(async () => {
    service = await startLocalService();
    test = await createTestStack(
      "unauthorized",
      async () => void declare(surface, "ConnectionGroup", "group", { name: "g" }),
      { ...service, apiKey: wrongKey },
      {},
      { plugin: surface === "plugin" },
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("401: up names etl:apiKey, ETL_API_KEY and etl:accountId, and never shows the key", async () => {
    const failure = await failureOf(test.stack.up());
    expect(failure).toContain("failed with 401 Unauthorized");
    expect(failure).toContain('check etl:apiKey (or ETL_API_KEY) and etl:accountId: the key must be that of a user of account "acme-test"');
    expect(failure).not.toContain(wrongKey);
    expect(failure).not.toContain(Buffer.from(`${wrongKey}:`).toString("base64"));
  });
});
