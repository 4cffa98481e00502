/**
 * A stack whose state an earlier version of the package wrote keeps working: a checkpoint and
 * the emulator's matching records, both committed under test/fixtures/stored-state, are
 * loaded as they are; a preview and a refresh find nothing to do, and destroy removes the
 * objects. The stored one-line providers call `providerFor` with today's kind names, so this
 * fails if either ever changes.
 *
 * `WRITE_STORED_STATE=1` makes the first test write the fixture anew with the current package
 * (only when the stored form is meant to change).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cluster, ConnectionGroup, JobRun, PublicKey } from "pulumi-etl";
import { startEmulator, type RunningEmulator } from "pulumi-etl/emulator";
import { createTestStack, type TestStack } from "../support/engine";

const FIXTURE = path.resolve(__dirname, "../fixtures/stored-state");
const ACCOUNT = "acme-test";
/** The emulator's own credential in the fixture: a made-up value that opens nothing else. */
const API_KEY = "stored-state-fixture-local-only";
const KEY_LINE = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH stored@fixture";

function program() {
  return async () => {
    new PublicKey("key", { publicKey: KEY_LINE });
    new ConnectionGroup("group", { name: "stored", description: "from a stored checkpoint", connections: [{ id: 301, type: "postgres" }] });
    new Cluster("cluster", { nodes: 1, name: "stored" });
    new JobRun("run", { clusterId: 201, packageId: 101 });
  };
}

const FIXTURES = {
  accounts: [
    {
      id: 7,
      uid: ACCOUNT,
      users: [{ id: 70, name: "Test User", email: "test@example.com", apiKey: API_KEY }],
      packages: [{ id: 101, name: "quick", run: { seconds: 2, outcome: "completed" as const, outputs: [{ name: "out", records: 1 }] } }],
      clusters: [{ id: 201, name: "ready", nodes: 1 }],
      connections: [{ id: 301, name: "pg", type: "postgres" }],
    },
  ],
};

async function stackOn(emulator: RunningEmulator): Promise<TestStack> {
  // Credentials from the environment, so the checkpoint holds no address and no key of a run.
  const env = { ETL_API_URL: emulator.url, ETL_ACCOUNT_ID: ACCOUNT, ETL_API_KEY: API_KEY };
  const test = await createTestStack("stored-state", program(), { url: emulator.url, accountId: ACCOUNT, apiKey: API_KEY }, env);
  await test.stack.removeAllConfig(["etl:apiUrl", "etl:accountId", "etl:apiKey"]);
  return test;
}

async function writeFixture(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "etl-stored-"));
  const emulator = await startEmulator({ port: 0, speed: 100, fixtures: FIXTURES, dataDir });
  const test = await stackOn(emulator);
  try {
    await test.stack.up();
    // Settled states only: an idle cluster and a finished job stay as they are.
    for (let i = 0; i < 100; i++) {
      const state = (await (await fetch(`${emulator.url}/_emulator/state`)).json()) as { accounts: Array<{ clusters: Array<{ status: string }> }> };
      if (state.accounts[0].clusters.every((c: { status: string }) => c.status === "idle")) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await test.stack.refresh();
    writeFileSync(path.join(FIXTURE, "checkpoint.json"), `${JSON.stringify((await test.stack.exportStack()).deployment, null, 1)}\n`);
  } finally {
    await emulator.close();
    test.dispose();
  }
  cpSync(path.join(dataDir, "state.json"), path.join(FIXTURE, "service-state.json"));
  rmSync(dataDir, { recursive: true, force: true });
}

describe("a stack stored by an earlier version", { timeout: 240_000 }, () => {
  let emulator: RunningEmulator;
  let test: TestStack;
  let dataDir: string;
  const state = async () => ((await (await fetch(`${emulator.url}/_emulator/state`)).json()) as { accounts: any[] }).accounts[0];
  const writes = async () =>
    ((await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as Array<{ method: string }>).filter((r) => r.method !== "GET");

  beforeAll(async () => {
    if (process.env.WRITE_STORED_STATE === "1") await writeFixture();
    dataDir = mkdtempSync(path.join(tmpdir(), "etl-stored-"));
    cpSync(path.join(FIXTURE, "service-state.json"), path.join(dataDir, "state.json"));
    emulator = await startEmulator({ port: 0, dataDir });
    test = await stackOn(emulator);
    const deployment = JSON.parse(readFileSync(path.join(FIXTURE, "checkpoint.json"), "utf8"));
    await test.stack.importStack({ version: 3, deployment });
  });

  afterAll(async () => {
    test?.dispose();
    await emulator?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("holds the one-line provider of each kind and no credential", () => {
    const text = readFileSync(path.join(FIXTURE, "checkpoint.json"), "utf8");
    for (const kind of ["PublicKey", "ConnectionGroup", "Cluster", "JobRun"]) {
      expect(text).toContain(`require(\\"pulumi-etl/runtime\\").providerFor(\\"${kind}\\")`);
    }
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain("etl:apiKey");
  });

  it("previews no change, with no write call", async () => {
    await test.stack.preview({ expectNoChanges: true });
    expect(await writes()).toEqual([]);
  });

  it("refreshes with no change", async () => {
    const refresh = await test.stack.refresh({ expectNoChanges: true });
    expect(Object.keys(refresh.summary.resourceChanges ?? {})).toEqual(["same"]);
    expect(await writes()).toEqual([]);
    // A key stored before keys recorded their user learns it.
    const key = ((await test.stack.exportStack()).deployment.resources ?? []).find((r: any) => r.type === "pulumi-nodejs:dynamic/etl:PublicKey");
    expect(key.outputs.userId).toBe(70);
  });

  it("destroys its objects", async () => {
    await test.stack.destroy();
    const account = await state();
    expect(account.publicKeys).toEqual([]);
    expect(account.connectionGroups).toEqual([]);
    expect(account.clusters.filter((c: { id: number; status: string }) => c.id !== 201).map((c: { status: string }) => c.status)).toEqual(["terminated"]);
  });
});
