/**
 * Connection through the real engine against the emulator: the settings tried before the
 * create, up, an unchanged preview and refresh, a new password as one PUT of the password alone,
 * in-place updates, a replacement for a new type, drift, a connection deleted out of band,
 * adoption, a connection group made of the stack's connections, destroy; and the passwords in
 * no file of the stack, no CLI output and no error.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { Connection, ConnectionGroup, type ConnectionArgs, type ConnectionArgsOf } from "pulumi-etl";
import { createTestStack, failureOf, type TestStack } from "../../support/engine";
import { startTestEmulator, type Emulator } from "../../support/service";
import { filesUnder } from "../../support/soak";

const PASSWORD = "warehouse-SECRET-pw-1618";
const ROTATED = "warehouse-ROTATED-pw-3141";
const SECRET_KEY = "bucket-SECRET-key-2718281828";
const ADOPTED_PASSWORD = "adopted-SECRET-pw-5772";

describe("Connection on the real engine", { timeout: 300_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let outputs: OutputMap;
  const cliOutput: string[] = [];
  const onOutput = (text: string) => cliOutput.push(text);
  let warehouseArgs: ConnectionArgs;
  let postgres: ConnectionArgsOf<"postgres">;
  let unreachable: ConnectionArgs | undefined;
  let adoptedArgs: ConnectionArgs | undefined;

  const connection = async (type: string, id: unknown) => {
    const { status, body } = await service.api("GET", `/connections/${type}/${String(id)}`);
    return status === 200 ? body : undefined;
  };
  const up = async () => (outputs = (await test.stack.up({ onOutput })).outputs);
  const everythingWritten = () => [...filesUnder(test.workDir).map((file) => readFileSync(file, "latin1")), cliOutput.join("")];

  beforeAll(async () => {
    warehouseArgs = postgres = {
      type: "postgres",
      name: "warehouse",
      host: "warehouse.db.example.com",
      username: "etl",
      password: PASSWORD,
      database: "analytics",
    };
    service = await startTestEmulator();
    test = await createTestStack(
      "connection",
      async () => {
        const warehouse = new Connection("warehouse", warehouseArgs);
        const bucket = new Connection("bucket", { type: "s3", name: "landing", username: "AKIAEXAMPLE000000001", password: SECRET_KEY });
        const group = new ConnectionGroup("destinations", { name: "destinations", connections: [warehouse, bucket] });
        const broken = unreachable === undefined ? undefined : new Connection("unreachable", unreachable);
        const adopted = adoptedArgs === undefined ? undefined : new Connection("adopted", adoptedArgs);
        return {
          id: warehouse.id,
          type: warehouse.type,
          port: warehouse.port,
          ssl: warehouse.ssl,
          password: warehouse.password,
          bucketId: bucket.id,
          groupId: group.id,
          groupConnections: group.connections,
          brokenId: broken?.id,
          adoptedId: adopted?.id,
        };
      },
      service,
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("up tries each connection's settings, then creates it; the group holds both; secrets only encrypted", async () => {
    await service.resetRequests();
    await up();
    const writes = (await service.writeRequests()).map((r) => `${r.method} ${r.path.replace(/^\/[^/]+\/api/, "")}`);
    expect(writes.filter((w) => w.includes("/connections/postgres"))).toEqual(["POST /connections/postgres/test", "POST /connections/postgres"]);
    expect(writes.filter((w) => w.includes("/connections/s3"))).toEqual(["POST /connections/s3/test", "POST /connections/s3"]);
    expect(writes.filter((w) => w.includes("connection_groups"))).toEqual(["POST /connection_groups"]);
    expect(await connection("postgres", outputs.id!.value)).toMatchObject({
      name: "warehouse",
      host: "warehouse.db.example.com",
      port: 5432,
      ssl: true,
      database: "analytics",
    });
    expect(outputs).toMatchObject({ type: { value: "postgres" }, port: { value: 5432 }, ssl: { value: true }, password: { secret: true } });
    const ids = [Number(outputs.id!.value), Number(outputs.bucketId!.value)].sort((a, b) => a - b);
    expect((outputs.groupConnections!.value as Array<{ id: number }>).map((c) => c.id)).toEqual(ids);
    for (const text of everythingWritten()) for (const secret of [PASSWORD, SECRET_KEY]) expect(text).not.toContain(secret);
  });

  it("an unchanged preview proposes nothing and calls nothing; refresh reads the group once and the two connections in at most two calls", async () => {
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.calls()).toEqual([]);
    const refresh = await test.stack.refresh({ expectNoChanges: true, onOutput });
    expect(refresh.summary.resourceChanges).toEqual({ same: 4 });
    const calls = await service.calls();
    expect(calls.filter((call) => call.startsWith("GET /connection_groups"))).toEqual([`GET /connection_groups/${outputs.groupId!.value}`]);
    // The listing's first page answers both when they come together; a first read alone is its own GET.
    const connectionCalls = calls.filter((call) => !call.startsWith("GET /connection_groups"));
    expect(connectionCalls.length).toBeLessThanOrEqual(2);
    const allowed = ["GET /connections", `GET /connections/postgres/${outputs.id!.value}`, `GET /connections/s3/${outputs.bucketId!.value}`];
    expect(connectionCalls.every((call) => allowed.includes(call))).toBe(true);
  });

  it("a new password in the program is one PUT to that connection, and nothing else changes", async () => {
    const before = await connection("postgres", outputs.id!.value);
    warehouseArgs = postgres = { ...postgres, password: ROTATED };
    await service.resetRequests();
    await up();
    expect(await service.writeRequests()).toMatchObject([
      { method: "PUT", path: expect.stringMatching(new RegExp(`/connections/postgres/${outputs.id!.value}$`)) },
    ]);
    const after = await connection("postgres", outputs.id!.value);
    expect({ ...after, updated_at: undefined }).toEqual({ ...before, updated_at: undefined });
    expect(JSON.stringify(await service.state())).not.toContain(ROTATED);
    for (const text of everythingWritten()) expect(text).not.toContain(ROTATED);
  });

  it('the service tries the saved password: one it refuses (the emulator refuses any starting with "wrong") shows the PUT reached it', async () => {
    const savedTest = async () => (await service.api("POST", `/connections/postgres/${outputs.id!.value}/test`)).body;
    expect(await savedTest()).toBe(true);
    warehouseArgs = postgres = { ...postgres, password: `wrong-${ROTATED}` };
    await up();
    expect(await savedTest()).toEqual({ error_message: 'Authentication failed for user "etl"' });
    warehouseArgs = postgres = { ...postgres, password: ROTATED };
    await up();
    expect(await savedTest()).toBe(true);
  });

  it("a new port updates in place; a new type replaces the connection and the group follows", async () => {
    const id = outputs.id!.value;
    warehouseArgs = postgres = { ...postgres, port: 6432 };
    await up();
    expect(outputs.id!.value).toBe(id);
    expect(await connection("postgres", id)).toMatchObject({ port: 6432 });
    warehouseArgs = { type: "mysql", name: "warehouse", host: "warehouse.db.example.com", username: "etl", password: ROTATED };
    await up();
    expect(outputs.id!.value).not.toBe(id);
    expect(await connection("postgres", id)).toBeUndefined();
    expect(await connection("mysql", outputs.id!.value)).toMatchObject({ port: 3306, ssl: false });
    expect((outputs.groupConnections!.value as Array<{ id: number; type: string }>).map((c) => c.type).sort()).toEqual(["mysql", "s3"]);
  });

  it("a host changed out of band is found by refresh and undone by up; a deleted connection comes back", async () => {
    const id = outputs.id!.value;
    await service.api("PUT", `/connections/mysql/${id}`, { host: "elsewhere.example.com" });
    const refresh = await test.stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    await up();
    expect((await connection("mysql", id)).host).toBe("warehouse.db.example.com");
    await service.api("DELETE", `/connections/mysql/${id}`);
    await test.stack.refresh({ onOutput });
    await up();
    expect(outputs.id!.value).not.toBe(id);
    expect(await connection("mysql", outputs.id!.value)).toMatchObject({ host: "warehouse.db.example.com" });
  });

  it("settings the service cannot reach fail up with its reason and create nothing", async () => {
    unreachable = { type: "postgres", name: "unreachable", host: "db.invalid", username: "etl", password: PASSWORD };
    await service.resetRequests();
    const failure = await failureOf(test.stack.up({ onOutput }));
    expect(failure).toMatch(/the service could not connect with these postgres settings: .*db\.invalid.*Nothing was created/);
    expect(failure).not.toContain(PASSWORD);
    expect((await service.writeRequests()).map((r) => `${r.method} ${r.path.replace(/^\/[^/]+\/api/, "")}`)).toEqual(["POST /connections/postgres/test"]);
    const { body: all } = await service.api("GET", "/connections?type=postgres");
    expect(all.filter((c: { name: string }) => c.name === "unreachable")).toEqual([]);
    unreachable = undefined;
  });

  it("importId adopts an existing connection, sends its secrets, and the next preview is empty", async () => {
    const { body: made } = await service.api("POST", "/connections/snowflake", {
      name: "finance",
      account_name: "acme",
      username: "etl",
      password: "old",
      database: "FIN",
      warehouse: "LOAD_WH",
      region: "snowflake::us-east-1",
    });
    adoptedArgs = {
      type: "snowflake",
      name: "finance",
      accountName: "acme",
      username: "etl",
      password: ADOPTED_PASSWORD,
      database: "FIN",
      warehouse: "REPORT_WH",
      region: "snowflake::us-east-1",
      importId: made.id,
    };
    await service.resetRequests();
    await up();
    expect(outputs.adoptedId!.value).toBe(String(made.id));
    expect(await service.writeRequests()).toMatchObject([{ method: "PUT" }]);
    expect(await connection("snowflake", made.id)).toMatchObject({ warehouse: "REPORT_WH" });
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.writeRequests()).toEqual([]);
    for (const text of everythingWritten()) expect(text).not.toContain(ADOPTED_PASSWORD);
  });

  it("destroy deletes every connection and group of the stack, one DELETE each", async () => {
    const expected = [
      `DELETE /connections/mysql/${outputs.id!.value}`,
      `DELETE /connections/s3/${outputs.bucketId!.value}`,
      `DELETE /connections/snowflake/${outputs.adoptedId!.value}`,
      `DELETE /connection_groups/${outputs.groupId!.value}`,
    ];
    await service.resetRequests();
    await test.stack.destroy({ onOutput });
    expect((await service.calls()).sort()).toEqual(expected.sort());
    const { body: left } = await service.api("GET", "/connections?type=all");
    expect(left).toEqual([]);
    expect((await service.api("GET", "/connection_groups")).body).toEqual([]);
  });
});
