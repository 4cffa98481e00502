/**
 * What `etl-recover` decides for each pending create, against the emulator: one object
 * adopted, none (made before the deployment, or the stack's already) not created, two
 * ambiguous and left to the user; and how it writes the state, and refuses bad flags.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createHttpRequest, type RequestFn } from "../../provider/client/http";
import { destinations, type Destination } from "../../provider/recover/accounts";
import { findObjects } from "../../provider/recover/plan";
import { adoptedResource, plainValue, withAdopted, withPending, withUnsettled, type Deployment, type PendingOperation } from "../../provider/recover/state";

const API_KEY = "recover-unit-key-0123456789";
const OTHER_KEY = "recover-unit-key-of-beta-98765";
const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH recover@unit";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

function pending(kind: string, name: string, inputs: Record<string, unknown>): PendingOperation {
  return { type: "creating", resource: { urn: `urn:pulumi:s::p::etl:index:${kind}::${name}`, type: `etl:index:${kind}`, custom: true, inputs } };
}

function stateWith(ops: PendingOperation[], resources: Deployment["deployment"]["resources"] = []): Deployment {
  return { version: 3, deployment: { resources, pending_operations: ops } };
}

describe("etl-recover's findings", () => {
  let emulator: RunningEmulator;
  let request: RequestFn;
  let inAcme: () => Destination;
  let since: number;
  const cluster = { nodes: 1, name: "twin", description: "made twice" };

  beforeAll(async () => {
    emulator = await startEmulator({
      fixtures: {
        accounts: [
          { id: 1, uid: "acme", users: [{ id: 1, name: "A", email: "a@example.com", apiKey: API_KEY }] },
          { id: 2, uid: "beta", users: [{ id: 2, name: "B", email: "b@example.com", apiKey: OTHER_KEY }] },
        ],
      },
    });
    request = createHttpRequest({ apiUrl: emulator.url, accountId: "acme", apiKey: API_KEY, vendor: "service" });
    inAcme = () => ({ request, accountId: "acme" });
    since = Date.now();
    for (let i = 0; i < 2; i++) await request({ method: "POST", path: "/clusters", body: cluster });
  });
  afterAll(() => emulator.close());

  it("adopts the one object a create made, and reports none when the create made nothing", async () => {
    const key = await request<{ id: number }>({ method: "POST", path: "/user/keys", body: { public_key: KEY, name: "deploy" } });
    const ops = [pending("PublicKey", "key", { publicKey: KEY, name: "deploy" }), pending("ConnectionGroup", "group", { name: "never-made" })];
    const findings = await findObjects(inAcme, stateWith(ops), stateWith(ops), { since, chosen: new Map() });
    expect(findings.map((f) => [f.outcome, f.outcome === "found" ? f.id : undefined])).toEqual([
      ["found", String(key.body.id)],
      ["not created", undefined],
    ]);
  });

  it("takes no object made before the deployment began", async () => {
    const ops = [pending("Cluster", "cluster", cluster)];
    const [finding] = await findObjects(inAcme, stateWith(ops), stateWith(ops), { since: Date.now() + 120_000, chosen: new Map() });
    expect(finding!.outcome).toBe("not created");
  });

  it("lists two candidates and adopts neither; one the stack holds already is no candidate", async () => {
    const ops = [pending("Cluster", "cluster", cluster)];
    const [twice] = await findObjects(inAcme, stateWith(ops), stateWith(ops), { since, chosen: new Map() });
    expect(twice).toMatchObject({ outcome: "ambiguous", ids: expect.arrayContaining([expect.any(String), expect.any(String)]) });
    const ids = twice!.outcome === "ambiguous" ? twice!.ids : [];
    const held = stateWith(ops, [{ urn: "urn:pulumi:s::p::etl:index:Cluster::other", type: "etl:index:Cluster", id: ids[0] }]);
    const [once] = await findObjects(inAcme, held, held, { since, chosen: new Map() });
    expect(once).toMatchObject({ outcome: "found", id: ids[1] });
  });

  it("gives one object two creates could each have made to neither, and takes the user's choice", async () => {
    const ops = [pending("Cluster", "a", cluster), pending("Cluster", "b", cluster)];
    const held = stateWith(ops, [{ urn: "urn:pulumi:s::p::etl:index:Cluster::other", type: "etl:index:Cluster", id: "1" }]);
    const shared = await findObjects(inAcme, held, held, { since, chosen: new Map() });
    expect(shared.map((f) => f.outcome)).toEqual(["ambiguous", "ambiguous"]);
    const chosen = await findObjects(inAcme, held, held, { since, chosen: new Map([["a", "2"]]) });
    expect(chosen[0]).toMatchObject({ outcome: "found", id: "2", how: "as chosen with --adopt" });
    expect(chosen[1]).toMatchObject({ outcome: "not created" });
  });

  it("looks for each create in its provider's account: an explicit provider's recorded settings, else the stack's", async () => {
    const beta = createHttpRequest({ apiUrl: emulator.url, accountId: "beta", apiKey: OTHER_KEY, vendor: "service" });
    const made = await beta<{ id: number }>({ method: "POST", path: "/connection_groups", body: { connection_group: { name: "only-in-beta" } } });
    const providerUrn = "urn:pulumi:s::p::pulumi:providers:etl::in-beta";
    const explicit = {
      urn: providerUrn,
      type: "pulumi:providers:etl",
      id: "p1",
      inputs: { apiUrl: emulator.url, accountId: "beta", apiKey: { ...SECRET, plaintext: JSON.stringify(OTHER_KEY) }, version: "0.1.0" },
    };
    const broken = { ...explicit, urn: `${providerUrn}-broken`, inputs: { apiUrl: emulator.url, accountId: "beta" } };
    const onProvider = (op: PendingOperation, provider: { urn: string; id: string }) => ({
      ...op,
      resource: { ...op.resource, provider: `${provider.urn}::${provider.id}` },
    });
    const ops = [
      onProvider(pending("ConnectionGroup", "there", { name: "only-in-beta" }), explicit),
      pending("ConnectionGroup", "here", { name: "only-in-beta" }),
      onProvider(pending("ConnectionGroup", "unreachable", { name: "only-in-beta" }), broken),
    ];
    const state = stateWith(ops, [explicit, broken]);
    const stackSettings = (key: string) => ({ "etl:apiUrl": emulator.url, "etl:accountId": "acme", "etl:apiKey": API_KEY })[key];
    const findings = await findObjects(destinations(state, stackSettings), state, state, { since, chosen: new Map() });
    expect(findings[0]).toMatchObject({ outcome: "found", id: String(made.body.id), how: "by its name in account beta" });
    expect(findings[1]).toMatchObject({ outcome: "not created", accountId: "acme" });
    // A provider whose settings cannot be used keeps its creates pending, named, never cleared.
    expect(findings[2]).toMatchObject({
      outcome: "lookup failed",
      reason: expect.stringMatching(/^provider in-beta-broken's settings .* etl:apiKey is not set/),
    });
    expect(JSON.stringify(findings)).not.toContain(OTHER_KEY);
  });

  it("matches on secrets as the provider received them", async () => {
    expect(plainValue({ settings: { ...SECRET, plaintext: '{"url":"https://x"}' }, list: [{ ...SECRET, plaintext: '"p"' }] })).toEqual({
      settings: { url: "https://x" },
      list: ["p"],
    });
  });
});

describe("etl-recover's state", () => {
  const op = pending("Hook", "hook", { __provider: "exports.handler = …", name: "h", settings: { ...SECRET, ciphertext: "abc" } });

  it("adds the found object with its inputs as recorded (secrets encrypted, the provider kept) and clears its pending create", () => {
    const adopted = adoptedResource("Hook", op, "7");
    expect(adopted).toMatchObject({ id: "7", inputs: op.resource.inputs, outputs: { ...op.resource.inputs, __inputsSet: ["name", "settings"] } });
    const other = pending("Cluster", "c", {});
    const state = withAdopted(stateWith([op, other]), [adopted], new Set([op.resource.urn]));
    expect(state.deployment.resources).toEqual([adopted]);
    expect(state.deployment.pending_operations).toEqual([other]);
    expect(withPending(state, [op]).deployment.pending_operations).toEqual([other, op]);
  });

  it("marks the objects not settled so the next up carries on with them", () => {
    const state = stateWith(
      [],
      [
        { urn: "a", type: "etl:index:Cluster", id: "1" },
        { urn: "b", type: "etl:index:Cluster", id: "2" },
      ],
    );
    expect(withUnsettled(state, new Map([["a", "creating"]])).deployment.resources!.map((r) => r.initErrors)).toEqual([["creating"], undefined]);
  });
});

describe("etl-recover's flags", () => {
  const cli = path.resolve(import.meta.dirname, "../../dist/provider/recover/cli.js");
  const run = (args: string[]) => promisify(execFile)(process.execPath, [cli, ...args]).catch((error: { stderr: string; code: number }) => error);

  it("refuses an API key on the command line and a malformed choice, in a line naming the flag", async () => {
    const key = (await run(["--api-key=abc123"])) as { stderr: string; code: number };
    expect(key.code).toBe(1);
    expect(key.stderr.split("\n")[0]).toMatch(/^etl-recover: --api-key is not taken: .* set etl:apiKey or ETL_API_KEY$/);
    expect(key.stderr).not.toContain("abc123");
    const adopt = (await run(["--adopt", "cluster"])) as { stderr: string };
    expect(adopt.stderr.split("\n")[0]).toBe("etl-recover: --adopt must be NAME=ID, a resource's name (or urn) and its object's id, got \"cluster\"");
  });
});
