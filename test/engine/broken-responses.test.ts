/**
 * A service whose answers break the interface: the update fails with a clear message naming
 * what is wrong, and nothing wrong is written to state. A scripted server stands in for the
 * service, since the local one always answers correctly.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PublicKey } from "pulumi-etl";
import { createTestStack, failureOf, type TestStack } from "../support/engine";

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH quickstart-deploy";
const API_KEY = "broken-responses-key-0123";
const MEDIA_TYPE = "application/vnd.service+json; version=2";

const GOOD_KEY = {
  id: 5,
  name: "quickstart-deploy",
  fingerprint: "da:b7:da:4e:f8:9f:e5:a4:e5:50:a8:df:a1:b4:b5:93",
  comment: "quickstart-deploy",
  created_at: "2026-11-21T00:00:00Z",
  updated_at: "2026-11-21T00:00:00Z",
  url: "http://127.0.0.1/acme/api/user/keys/5",
};

/** What the scripted service answers to a create and to a read, changed by each test. */
const script = {
  create: { status: 201, body: { ...GOOD_KEY } as unknown },
  read: { status: 200, body: { ...GOOD_KEY } as unknown },
};

/** The account the settings name, as the provider's proof of them reads it, always well formed. */
const ACCOUNT = {
  status: 200,
  body: {
    id: 1,
    account_id: "acme",
    name: "Acme",
    region: "amazon-web-services::us-east-1",
    owner_id: 1,
    is_owner: true,
    created_at: GOOD_KEY.created_at,
    updated_at: GOOD_KEY.updated_at,
  },
};

function startScriptedService(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    const answer = req.url === "/accounts/acme" ? ACCOUNT : req.method === "POST" ? script.create : script.read;
    res.writeHead(answer.status, { "content-type": MEDIA_TYPE });
    res.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("answers that break the interface", { timeout: 180_000 }, () => {
  let server: Server;
  let test: TestStack;
  const keysInState = async () =>
    ((await test.stack.exportStack()).deployment.resources ?? []).filter((r: { type: string }) => r.type === "pulumi-nodejs:dynamic/etl:PublicKey");

  beforeAll(async () => {
    server = await startScriptedService();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    test = await createTestStack(
      "broken-responses",
      async () => {
        new PublicKey("key", { publicKey: KEY });
      },
      { url, accountId: "acme", apiKey: API_KEY },
    );
  });

  afterAll(async () => {
    test?.dispose();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("a created record of the wrong shape fails the update, naming the fields, and records nothing", async () => {
    script.create.body = { id: "five", name: 7 };
    const output = await failureOf(test.stack.up());
    expect(output).toContain("the service returned a public key that does not match the API");
    expect(output).toMatch(/id: .*number/);
    expect(output).not.toMatch(/\n\s+at /);
    expect(await keysInState()).toEqual([]);
  });

  it("a body that is not JSON fails the update clearly and records nothing", async () => {
    script.create = { status: 201, body: "<html>gateway</html>" };
    const output = await failureOf(test.stack.up());
    expect(output).toContain("the response body is not valid JSON");
    expect(await keysInState()).toEqual([]);
  });

  it("a broken answer to a refresh leaves the recorded state as it was", async () => {
    script.create = { status: 201, body: { ...GOOD_KEY } };
    await test.stack.up();
    const before = await keysInState();
    expect(before).toHaveLength(1);
    expect(before[0].outputs.fingerprint).toBe(GOOD_KEY.fingerprint);

    script.read = { status: 200, body: { id: 5, fingerprint: null } };
    const output = await failureOf(test.stack.refresh());
    expect(output).toContain("the service returned a public key that does not match the API");
    // What the provider recorded: the engine itself rewrites bookkeeping such as propertyDependencies.
    const recorded = (resources: Array<{ id: string; inputs: unknown; outputs: unknown }>) =>
      resources.map(({ id, inputs, outputs }) => ({ id, inputs, outputs }));
    expect(recorded(await keysInState())).toEqual(recorded(before));
  });
});
