/**
 * The lookups a program fills inputs from, inside a real Pulumi program: catalogues (regions,
 * stacks, time zones, system variables, connection types), the current user and account, a
 * member by email, connections by id and type, and the free rate-limit status. The API key and
 * the connections' secrets appear in none of their answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getAccount,
  getConnection,
  getConnectionTypes,
  getCurrentUser,
  getMember,
  getRateLimitStatus,
  getRegions,
  getStacks,
  getSystemVariables,
  getTimeZones,
  listConnections,
} from "pulumi-etl";
import { createTestStack, failureOf, type TestStack } from "../support/engine";
import { startTestEmulator, type Emulator } from "../support/service";

const PASSWORD = "lookup-SECRET-pw-4669";

describe("lookups in a program on the real engine", { timeout: 180_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let connectionId = 0;
  let memberEmail = "lee@example.com";

  beforeAll(async () => {
    service = await startTestEmulator({ users: [{ id: 71, name: "Lee Analyst", email: "lee@example.com", apiKey: "lookups-key-lee", role: "admin" }] });
    const { status, body } = await service.api("POST", "/connections/postgres", {
      name: "warehouse",
      host: "db.example.com",
      username: "etl",
      password: PASSWORD,
    });
    expect(status, JSON.stringify(body)).toBe(201);
    connectionId = body.id;
    test = await createTestStack(
      "lookups",
      async () => {
        const [regions, snowflakeRegions, accountRegions, stacks, zones, variables, types] = await Promise.all([
          getRegions(),
          getRegions({ type: "snowflake" }),
          getRegions({ account: true }),
          getStacks(),
          getTimeZones(),
          getSystemVariables(),
          getConnectionTypes(),
        ]);
        const [user, account, member, connection, postgres, before] = await Promise.all([
          getCurrentUser(),
          getAccount(),
          getMember({ email: memberEmail }),
          getConnection({ type: "postgres", id: String(connectionId) }),
          listConnections({ type: "postgres" }),
          getRateLimitStatus(),
        ]);
        const after = await getRateLimitStatus();
        return {
          regionCount: regions.length,
          snowflakeRegions: snowflakeRegions.map((r) => r.id),
          accountRegionsAreRegions: accountRegions.every((r) => regions.some((all) => all.id === r.id)),
          stacks: stacks.map((s) => s.id),
          hasUtc: zones.some((z) => z.id === "UTC"),
          hasParallelism: "_DEFAULT_PARALLELISM" in variables,
          types: types.map((t) => t.type),
          user: JSON.stringify(user),
          userEmail: user.email,
          accountId: account.accountId,
          accountRole: account.role,
          member: { id: member.id, role: member.role, owner: member.owner },
          connection: JSON.stringify(connection),
          connectionPort: connection.port,
          postgresIds: postgres.map((c) => c.id),
          limit: before.limit,
          freeToAsk: before.remaining === after.remaining,
        };
      },
      service,
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("up exports what the lookups read, without the key or any password", async () => {
    const result = await test.stack.up();
    const outputs = Object.fromEntries(Object.entries(result.outputs).map(([name, output]) => [name, output.value]));
    expect(outputs.regionCount).toBeGreaterThan(10);
    expect(outputs.snowflakeRegions).toContain("snowflake::us-east-1");
    expect((outputs.snowflakeRegions as string[]).every((id) => id.startsWith("snowflake::"))).toBe(true);
    expect(outputs.accountRegionsAreRegions).toBe(true);
    expect(outputs.stacks).toEqual(expect.arrayContaining(["mint-everest", "blue-everest"]));
    expect(outputs).toMatchObject({ hasUtc: true, hasParallelism: true, userEmail: "test@example.com", accountId: service.accountId, accountRole: "admin" });
    expect(outputs.types).toEqual(expect.arrayContaining(["postgres", "mysql", "snowflake", "s3", "gs", "azureblobstorage", "sftp", "salesforce"]));
    expect(outputs.member).toEqual({ id: 71, role: "admin", owner: false });
    expect(outputs.connectionPort).toBe(5432);
    expect(outputs.postgresIds).toEqual([connectionId]);
    expect(outputs.limit).toBeGreaterThan(0);
    expect(outputs.freeToAsk).toBe(true);
    expect(outputs.user).not.toContain(service.apiKey);
    expect(outputs.connection).not.toContain(PASSWORD);
  });

  it("a member the account does not have fails the update naming the email", async () => {
    memberEmail = "nobody@example.com";
    expect(await failureOf(test.stack.up())).toContain("getMember: no member of the account has the email nobody@example.com");
    memberEmail = "lee@example.com";
  });
});
