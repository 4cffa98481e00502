import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator";
import { FixturesError, validateFixtures } from "../../../emulator/fixtures";
import { ACCEPT, basic, closedAfterEach } from "../helpers";

/** Users and their roles in the fixtures: one user may belong to several accounts, each account has one owner. */

const dana = { id: 1, name: "Dana", email: "dana@example.com", apiKey: "k-dana" };
const lee = { id: 2, name: "Lee", email: "lee@example.com", apiKey: "k-lee" };

function problems(input: unknown): string {
  try {
    validateFixtures(input);
  } catch (error) {
    expect(error).toBeInstanceOf(FixturesError);
    return (error as Error).message;
  }
  throw new Error("the fixtures were accepted");
}

describe("fixture users and roles", () => {
  it("accepts the same user in two accounts and an explicit owner other than the first user", () => {
    const valid = validateFixtures({
      accounts: [
        { id: 1, uid: "a", users: [dana, lee] },
        {
          id: 2,
          uid: "b",
          users: [
            { ...lee, role: "admin" },
            { ...dana, role: "owner" },
          ],
        },
      ],
    });
    expect(valid.accounts[1]!.users[1]!.role).toBe("owner");
  });

  it("reports two owners, no owner, and a duplicate id within an account at their paths", () => {
    expect(
      problems({
        accounts: [
          {
            id: 1,
            uid: "a",
            users: [
              { ...dana, role: "owner" },
              { ...lee, role: "owner" },
            ],
          },
        ],
      }),
    ).toContain("accounts[0].users[1].role: second owner: users[0] owns this account already, and an account has exactly one owner");
    expect(problems({ accounts: [{ id: 1, uid: "a", users: [{ ...dana, role: "member" }, lee] }] })).toContain(
      "accounts[0].users: an account needs exactly one owner",
    );
    expect(problems({ accounts: [{ id: 1, uid: "a", users: [dana, dana] }] })).toContain("accounts[0].users[1].id: duplicate user id in this account");
    expect(problems({ accounts: [{ id: 1, uid: "a", users: [{ ...dana, role: "boss" }] }] })).toContain("accounts[0].users[0].role");
  });

  it("reports one id with another email, name or key, and one email or key for two ids", () => {
    const message = problems({
      accounts: [
        { id: 1, uid: "a", users: [dana, lee] },
        {
          id: 2,
          uid: "b",
          users: [
            { ...dana, email: "DANA@other.example", name: "D", apiKey: "k-other" },
            { ...lee, id: 3, apiKey: "k-3" },
          ],
        },
      ],
    });
    expect(message).toContain("accounts[1].users[0].email: user 1 has another email in accounts[0].users[0]");
    expect(message).toContain("accounts[1].users[0].name: user 1 has another name in accounts[0].users[0]");
    expect(message).toContain("accounts[1].users[0].apiKey: user 1 has another apiKey in accounts[0].users[0]");
    expect(message).toContain("accounts[1].users[1].email: duplicate email: it is user 2's");
  });
});

describe("a user of two accounts", () => {
  const started = closedAfterEach();

  it("reaches both with one key and lists both accounts with its role in each", async () => {
    const emulator = started(
      await startEmulator({
        port: 0,
        fixtures: {
          accounts: [
            { id: 1, uid: "a", users: [dana, lee] },
            { id: 2, uid: "b", users: [lee] },
          ],
        },
      }),
    );
    const get = (path: string) => fetch(`${emulator.url}${path}`, { headers: { Accept: ACCEPT, Authorization: basic(lee.apiKey) } });
    expect((await get("/a/api/members")).status).toBe(200);
    expect((await get("/b/api/members")).status).toBe(200);
    expect(emulator.accounts).toEqual([
      { uid: "a", apiKey: "k-dana" },
      { uid: "b", apiKey: "k-lee" },
    ]);
    const accounts: any = await (await get("/accounts?sort=created&direction=asc")).json();
    expect(accounts.map((account: { account_id: string; role: string }) => [account.account_id, account.role])).toEqual([
      ["a", "member"],
      ["b", "admin"],
    ]);
    const state: any = await (await fetch(`${emulator.url}/_emulator/state`)).json();
    expect(state.accounts[1].users).toEqual([{ id: 2, name: "Lee", email: "lee@example.com" }]);
    expect(state.accounts[1].memberships).toEqual([expect.objectContaining({ userId: 2, role: "owner" })]);
  });
});

describe("a state.json saved while users lived inside accounts", () => {
  const started = closedAfterEach();
  const dataDir = mkdtempSync(join(tmpdir(), "etl-legacy-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("loads with each user once and the first user of each account its owner", async () => {
    const legacy = {
      format: 1,
      accounts: [
        {
          id: 1,
          uid: "a",
          billing: true,
          users: [
            { ...dana, accountId: 1 },
            { ...lee, accountId: 1 },
          ],
        },
        { id: 2, uid: "b", billing: false, users: [{ ...lee, accountId: 2 }] },
      ],
      sequences: {},
      tables: {},
    };
    writeFileSync(join(dataDir, "state.json"), JSON.stringify(legacy));
    const emulator = started(await startEmulator({ port: 0, dataDir }));
    const get = (path: string) => fetch(`${emulator.url}${path}`, { headers: { Accept: ACCEPT, Authorization: basic(lee.apiKey) } });
    const members: any = await (await get("/a/api/members?sort=name&direction=asc")).json();
    expect(members.map((m: { id: number; owner: boolean }) => [m.id, m.owner])).toEqual([
      [1, true],
      [2, false],
    ]);
    const b: any = await (await get("/accounts/b")).json();
    expect(b).toMatchObject({ name: "b", is_owner: true, members_count: 1 });
  });
});
