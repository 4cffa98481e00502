import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator";
import { defaultFixtures, FixturesError, loadFixturesFile, validateFixtures } from "../../emulator/fixtures";
import { call, ed25519Key, testFixtures, readJson } from "./helpers";

const dir = mkdtempSync(join(tmpdir(), "etl-fixtures-"));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function expectInvalid(input: unknown, ...fragments: string[]): void {
  let caught: unknown;
  try {
    validateFixtures(input);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(FixturesError);
  for (const fragment of fragments) expect((caught as Error).message).toContain(fragment);
}

const user = { id: 1, name: "Dana", email: "dana@example.com", apiKey: "k1" };

describe("validateFixtures", () => {
  it("accepts the test fixtures", () => {
    expect(validateFixtures(testFixtures()).accounts).toHaveLength(2);
  });

  it("names the JSON path of a wrong value", () => {
    expectInvalid({ accounts: [{ id: 1, uid: "a", users: [{ ...user, email: 5 }] }] }, "accounts[0].users[0].email");
    expectInvalid({ accounts: [{ id: "1", uid: "a", users: [user] }] }, "accounts[0].id");
    expectInvalid({}, "accounts");
  });

  it("rejects uids that are not plain URL segments or clash with control paths", () => {
    expectInvalid({ accounts: [{ id: 1, uid: "a/b", users: [user] }] }, "accounts[0].uid");
    expectInvalid({ accounts: [{ id: 1, uid: "_emulator", users: [user] }] }, "accounts[0].uid");
  });

  it("rejects accounts without users", () => {
    expectInvalid({ accounts: [{ id: 1, uid: "a", users: [] }] }, "accounts[0].users");
  });

  it("rejects duplicates across accounts", () => {
    expectInvalid(
      {
        accounts: [
          { id: 1, uid: "a", users: [user] },
          { id: 1, uid: "a", users: [{ ...user, id: 2 }] },
        ],
      },
      "accounts[1].id: duplicate account id",
      "accounts[1].uid: duplicate account uid",
      "accounts[1].users[0].apiKey: duplicate apiKey",
    );
  });

  it("checks preloaded public keys", () => {
    expectInvalid(
      { accounts: [{ id: 1, uid: "a", users: [user], publicKeys: [{ userId: 9, publicKey: "ssh-ed25519 AAAA" }] }] },
      "accounts[0].publicKeys[0].userId: no user with id 9",
      "accounts[0].publicKeys[0].publicKey: publicKey must hold a ssh-ed25519 key: the base64 part does not match its declared type",
    );
    expectInvalid(
      { accounts: [{ id: 1, uid: "a", users: [user], publicKeys: [{ publicKey: ed25519Key().line }] }] },
      "accounts[0].publicKeys[0].name: name is required",
    );
  });
});

describe("loadFixturesFile", () => {
  it("reports unreadable files and invalid JSON with the path", () => {
    expect(() => loadFixturesFile(join(dir, "missing.json"))).toThrow(/cannot read fixtures file .*missing\.json: ENOENT/);
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "{ nope");
    expect(() => loadFixturesFile(broken)).toThrow(/fixtures file .*broken\.json is not valid JSON/);
  });
});

describe("defaultFixtures", () => {
  it("creates the acme-data account with a fresh random key each call", () => {
    const first = defaultFixtures();
    const second = defaultFixtures();
    expect(first.accounts[0]).toMatchObject({
      id: 1,
      uid: "acme-data",
      users: [
        { id: 1, name: "Dana Platform", email: "dana@example.com" },
        { id: 2, name: "Lee Analyst", email: "lee@example.com" },
      ],
    });
    // Something of every kind, so a first look at the service shows a realistic account.
    const account = first.accounts[0]!;
    expect(account.packages.map((p) => p.run.outcome)).toEqual(expect.arrayContaining(["completed", "failed"]));
    expect(account.connections.map((c) => c.type)).toEqual(expect.arrayContaining(["postgres", "web_analytics", "ads_platform", "crm_platform"]));
    expect(account.clusters.length).toBeGreaterThan(0);
    expect(account.invoices.length).toBeGreaterThan(0);
    expect(first.productUpdates.length).toBeGreaterThan(0);
    expect(first.accounts[0]!.users[0]!.apiKey).toMatch(/^[0-9a-f]{40}$/);
    expect(first.accounts[0]!.users[0]!.apiKey).not.toBe(second.accounts[0]!.users[0]!.apiKey);
  });
});

describe("startEmulator with fixtures", () => {
  it("uses the default account when given none", async () => {
    const emulator = await startEmulator();
    try {
      expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(emulator.accounts).toEqual([{ uid: "acme-data", apiKey: expect.stringMatching(/^[0-9a-f]{40}$/) }]);
      const response = await call(emulator, "/user/keys", { key: emulator.accounts[0]!.apiKey });
      expect(response.status).toBe(200);
    } finally {
      await emulator.close();
    }
  });

  it("loads a fixtures file with preloaded keys, continuing their id sequence", async () => {
    const key = ed25519Key("preloaded");
    const path = join(dir, "fixtures.json");
    writeFileSync(
      path,
      JSON.stringify({
        accounts: [
          {
            id: 7,
            uid: "initech",
            users: [
              { id: 1, name: "Peter", email: "peter@example.com", apiKey: "peter-key" },
              { id: 2, name: "Milton", email: "milton@example.com", apiKey: "milton-key" },
            ],
            publicKeys: [
              { id: 40, userId: 2, publicKey: key.line },
              { name: "named", publicKey: ed25519Key().line },
            ],
          },
        ],
      }),
    );
    const emulator = await startEmulator({ fixtures: path });
    try {
      expect(emulator.accounts).toEqual([{ uid: "initech", apiKey: "peter-key" }]);
      const milton = await call(emulator, "/user/keys/40", { account: "initech", key: "milton-key" });
      expect(await readJson(milton)).toMatchObject({ id: 40, name: "preloaded", fingerprint: key.fingerprint });
      const peter = (await readJson(await call(emulator, "/user/keys", { account: "initech", key: "peter-key" }))) as { id: number; name: string }[];
      expect(peter).toMatchObject([{ id: 41, name: "named" }]);
      const created = await call(emulator, "/user/keys", {
        account: "initech",
        key: "peter-key",
        method: "POST",
        body: { public_key: ed25519Key("new").line },
      });
      expect((await readJson(created)).id).toBe(42);
    } finally {
      await emulator.close();
    }
  });

  it("rejects invalid fixtures before listening", async () => {
    await expect(startEmulator({ fixtures: { accounts: [{ id: 1, uid: "a", users: [] }] } as never })).rejects.toThrow(FixturesError);
  });

  it("closes idempotently", async () => {
    const emulator = await startEmulator({ fixtures: testFixtures() });
    await call(emulator, "/user/keys");
    await emulator.close();
    await emulator.close();
    await expect(fetch(`${emulator.url}/_emulator/health`)).rejects.toThrow();
  });
});
