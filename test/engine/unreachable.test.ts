/**
 * Settings that cannot work fail the preview, before any resource is planned, as they fail `up`:
 * the provider proves its address, account and key with one call per process. An address that
 * refuses connections (a closed loopback port), never reached, fails naming how long it was
 * tried, the first contact's 5 s however long the retry budget (exactly 5 on a scripted clock in
 * test/unit/policies/unreachable.test.ts; here the machine's), with `etl:apiUrl` and the address; the create was never
 * sent, so it is no unknown outcome, nothing is looked for, and nothing enters the stack. (A host
 * that does not exist takes the same path: its proof's message is held by
 * test/unit/settings-proof.test.ts; how long each takes, by `npm run bench:unreachable`.) A wrong
 * key names the settings that make the credentials and the account, never the key (the key of
 * another account's user: the same unit test, and on the plugin the Go and Python releases'
 * lifecycles, test/release); with `etl:skipCredentialsValidation` an unchanged preview makes no call.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PipelineArgs } from "pulumi-etl";
import { createTestStack, failureOf, type Service, type TestStack } from "../support/engine";
import { startTestEmulator, type Emulator } from "../support/service";
import { expectSettingsErrorOnce } from "../support/settings-proof";
import { declare, declarePipeline, SURFACES, type Surface } from "../support/surfaces";

/**
 * A loopback port nothing listens on: port 1, below the ports the system hands out, so no engine
 * or service of a test running beside this one can take it meanwhile, as one once took a closed
 * emulator's port (and answered in HTTP/2). Checked to refuse a connection first.
 */
async function closedAddress(): Promise<string> {
  const refused = await new Promise<string | undefined>((resolve) => {
    const socket = connect(1, "127.0.0.1", () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code));
  });
  if (refused !== "ECONNREFUSED") throw new Error(`127.0.0.1:1 should refuse connections on this machine; it answered ${refused ?? "with a connection"}`);
  return "http://127.0.0.1:1";
}

describe.each(SURFACES)("an address that cannot be reached (%s)", { timeout: 240_000 }, (surface) => {
  const stacks: TestStack[] = [];
  const output: string[] = [];
  const onOutput = (text: string) => output.push(text);

  async function stackAt(service: Service): Promise<TestStack> {
    const test = await createTestStack(
      "unreachable",
      async () => void declare(surface, "Cluster", "main", { nodes: 1 }),
      service,
      {},
      { plugin: surface === "plugin" },
    );
    stacks.push(test);
    return test;
  }

  afterAll(() => {
    for (const test of stacks) test.dispose();
  });

  /** How a preview and an up, each of a new stack at the address and run side by side, fail: the settings are proven first, at either. */
  async function failures(url: string): Promise<{ preview: string; up: string; test: TestStack }> {
    const service = { url, accountId: "acme-test", apiKey: "unused-key" };
    const [previewed, test] = await Promise.all([stackAt(service), stackAt(service)]);
    output.length = 0;
    const [preview, up] = await Promise.all([failureOf(previewed.stack.preview()), failureOf(test.stack.up({ onOutput }))]);
    return { preview, up, test };
  }

  /** Nothing was looked for, nothing guessed, and the stack holds no cluster. */
  async function expectNothingLookedFor(failure: string, test: TestStack): Promise<void> {
    expect(failure).not.toContain("may or may not");
    expect(failure).not.toContain("outcome is unknown");
    expect(output.join("")).not.toMatch(/looking for what the request made|adopting it|sending it again/);
    const resources = (await test.stack.exportStack()).deployment.resources ?? [];
    expect(resources.filter((r: { urn: string }) => r.urn.endsWith("::main"))).toEqual([]);
  }

  it("a closed port never reached, with the default budget: preview and up each fail saying how long it was tried, the first contact's 5 s at least, naming etl:apiUrl and the address, without looking for a cluster", async () => {
    const url = await closedAddress();
    const { preview, up, test } = await failures(url);
    for (const failure of [preview, up]) {
      const tried = new RegExp(
        `could not reach ${url.replace(/\./g, "\\.")} \\(ECONNREFUSED\\) for (\\d+) s: nothing was sent; check etl:apiUrl \\(the connection was refused`,
      ).exec(failure);
      expect(tried, failure).not.toBeNull();
      expect(Number(tried![1])).toBeGreaterThanOrEqual(5);
      expect(failure).toContain('the provider\'s settings could not be checked against account "acme-test"');
    }
    await expectNothingLookedFor(up, test);
  });
});

/** A pipeline on a cron, alerting a web hook: the plugin constructs it, while the dynamic surface declares it in the program. */
const ROLLUP: PipelineArgs = {
  name: "orders rollup",
  schedule: { cron: "0 6 * * *", timeZone: "New Delhi" },
  cluster: { nodes: 3 },
  failureAlert: { type: "web", settings: { url: "https://alerts.example.com/etl" } },
};

/** Where the settings' error is reported: on the plugin's provider; on the dynamic surface, which has no provider of its own, on the first resource checked. */
const REPORTED_ON: Record<Surface, RegExp> = { plugin: /^pulumi:providers:etl \(default/, dynamic: /^pulumi-nodejs:dynamic\/etl:\w+ \(/ };

describe.each(SURFACES)("settings the service does not accept, with a pipeline in the program (%s)", { timeout: 240_000 }, (surface) => {
  let service: Emulator;
  let test: TestStack;
  const wrongKey = "wrong-key-7f3a9c";
  const onOutput = () => undefined;
  const setKey = (apiKey: string) => test.stack.setConfig("etl:apiKey", { value: apiKey, secret: true });
  const previewFailure = async (): Promise<{ failure: string; calls: string[] }> => {
    await service.resetRequests();
    const failure = await failureOf(test.stack.preview({ onOutput }));
    return { failure, calls: await service.allCalls() };
  };

  beforeAll(async () => {
    service = await startTestEmulator();
    test = await createTestStack(
      "settings",
      async () => {
        declare(surface, "ConnectionGroup", "group", { name: "g" });
        declarePipeline(surface, "rollup", ROLLUP);
      },
      service,
      {},
      { plugin: surface === "plugin" },
    );
    await test.stack.up({ onOutput });
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("an unchanged preview proves the settings with one call, and none with etl:skipCredentialsValidation", async () => {
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.allCalls()).toEqual(["GET /accounts/acme-test"]);
    await test.stack.setConfig("etl:skipCredentialsValidation", { value: "true" });
    try {
      await service.resetRequests();
      await test.stack.preview({ expectNoChanges: true, onOutput });
      expect(await service.allCalls()).toEqual([]);
    } finally {
      await test.stack.removeConfig("etl:skipCredentialsValidation");
    }
  });

  it("a wrong key fails the preview with one call and one error, naming etl:apiKey, etl:accountId and the account, never the key", async () => {
    await setKey(wrongKey);
    try {
      const { failure, calls } = await previewFailure();
      expect(failure).toContain(
        `the service refused the API key for account "acme-test" at ${service.url} (401 Unauthorized): etl:apiKey (or ETL_API_KEY) is wrong or revoked`,
      );
      expect(failure).toContain('etl:accountId "acme-test"');
      expect(calls).toEqual(["GET /accounts/acme-test"]);
      expect(failure).not.toContain(wrongKey);
      expect(failure).not.toContain(Buffer.from(`${wrongKey}:`).toString("base64"));
      expect(failure).not.toMatch(/\n\s+at /);
      expectSettingsErrorOnce(failure, /the service refused the API key for account "acme-test"/, REPORTED_ON[surface]);
    } finally {
      await setKey(service.apiKey);
    }
  });
});
