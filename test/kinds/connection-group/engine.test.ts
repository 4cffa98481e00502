/**
 * ConnectionGroup through the real engine against the emulator: up, an unchanged preview
 * and refresh, an in-place update, a forced replacement, drift, a group deleted out of band,
 * adoption by importId, destroy; and the API calls each operation costs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { ConnectionGroup, type ConnectionGroupArgs as GroupArgs } from "pulumi-etl";
import { createTestStack, type TestStack, failureOf } from "../../support/engine";
import { startTestEmulator, type Emulator } from "../../support/service";

interface GroupRow {
  id: number;
  name: string;
  description: string | null;
  connectionIds: number[];
}

const CONNECTIONS = [
  { id: 301, name: "warehouse", type: "postgres" },
  { id: 302, name: "raw", type: "s3" },
  // Web analytics connections cannot join groups: the service refuses them.
  { id: 304, name: "web", type: "web_analytics" },
];
const WAREHOUSE = { id: 301, type: "postgres" };
const RAW = { id: 302, type: "s3" };

describe("ConnectionGroup on the real engine", { timeout: 240_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  const cliOutput: string[] = [];
  const onOutput = (text: string) => cliOutput.push(text);

  // What the program declares; each step sets what it needs before running the engine.
  let groupArgs: GroupArgs = {
    name: "analytics",
    description: "Curated sources",
    // Ids as strings and out of order: the group compares them as a set of numbers.
    connections: [{ id: "302", type: "s3" }, WAREHOUSE],
  };
  let adoptedArgs: GroupArgs | undefined;

  const groups = async () => (await service.state()).accounts[0].connectionGroups as GroupRow[];
  const groupById = async (id: unknown) => (await groups()).find((group) => group.id === Number(id));
  /** The API calls since the last reset, as `METHOD /path` below the account's base address. */
  const calls = () => service.calls();
  const expectNoWrites = async () => expect(await service.writeRequests()).toEqual([]);

  beforeAll(async () => {
    service = await startTestEmulator({ account: { connections: CONNECTIONS } });
    test = await createTestStack(
      "connection-group",
      async () => {
        const group = new ConnectionGroup("analytics", groupArgs);
        const adopted = adoptedArgs === undefined ? undefined : new ConnectionGroup("legacy", adoptedArgs);
        return {
          urn: group.urn,
          id: group.id,
          name: group.name,
          description: group.description,
          connections: group.connections,
          accountId: group.accountId,
          modifiedBy: group.modifiedBy,
          adoptedId: adopted?.id,
          adoptedDescription: adopted?.description,
        };
      },
      service,
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  let outputs: OutputMap;

  it("up creates the group with its connections, in one call", async () => {
    await service.resetRequests();
    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    expect(await calls()).toEqual(["POST /connection_groups"]);
    outputs = up.outputs;
    expect(outputs.name.value).toBe("analytics");
    expect(outputs.description.value).toBe("Curated sources");
    expect(outputs.accountId.value).toBe(7);
    expect(outputs.modifiedBy.value).toEqual({ name: "Test User", email: "test@example.com" });
    expect(outputs.connections.value).toEqual([
      { id: 301, name: "warehouse", type: "postgres" },
      { id: 302, name: "raw", type: "s3" },
    ]);
    expect(await groups()).toEqual([
      expect.objectContaining({ id: Number(outputs.id.value), name: "analytics", description: "Curated sources", connectionIds: [301, 302] }),
    ]);
  });

  it("an unchanged preview proposes nothing and calls no endpoint", async () => {
    await service.resetRequests();
    const preview = await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(await calls()).toEqual([]);
  });

  it("refresh finds no change, reading the group once", async () => {
    await service.resetRequests();
    const refresh = await test.stack.refresh({ expectNoChanges: true, onOutput });
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
    expect(await calls()).toEqual([`GET /connection_groups/${outputs.id.value}`]);
  });

  // A type that can never join (web_analytics) is refused at preview (bad-input-dynamic.test.ts, bad-input-plugin.test.ts); a
  // connection whose own type is not the one given is for the service to say.
  it("a connection that cannot join fails the update with the service's answer, changing nothing", async () => {
    groupArgs = { ...groupArgs, connections: [WAREHOUSE, RAW, { id: 304, type: "postgres" }] };
    const output = await failureOf(test.stack.up({ onOutput }));
    expect(output).toContain("connection 304 has type web_analytics, not postgres");
    expect(output).not.toMatch(/\n\s+at /);
    expect(await groupById(outputs.id.value)).toMatchObject({ connectionIds: [301, 302] });
  });

  it("a description left out and fewer connections update the group in place", async () => {
    // No description in the program means none in the service.
    groupArgs = { name: "analytics", connections: [WAREHOUSE] };
    await service.resetRequests();
    const preview = await test.stack.preview({ onOutput });
    expect(preview.changeSummary).toEqual({ update: 1, same: 1 });
    await expectNoWrites();

    await service.resetRequests();
    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(await calls()).toEqual([`PUT /connection_groups/${outputs.id.value}`]);
    expect(up.outputs.id.value).toBe(outputs.id.value);
    expect(up.outputs.connections.value).toEqual([{ id: 301, name: "warehouse", type: "postgres" }]);
    expect(up.outputs.description.value).toBeNull();
    expect(await groups()).toEqual([expect.objectContaining({ id: Number(outputs.id.value), description: null, connectionIds: [301] })]);
    outputs = up.outputs;
  });

  it("a forced replacement deletes the old group before creating the new one, whose name it reuses", async () => {
    await service.resetRequests();
    const up = await test.stack.up({ replace: [outputs.urn.value], onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(await calls()).toEqual([`DELETE /connection_groups/${outputs.id.value}`, "POST /connection_groups"]);
    expect(up.outputs.id.value).not.toBe(outputs.id.value);
    expect(await groups()).toEqual([expect.objectContaining({ id: Number(up.outputs.id.value), name: "analytics", description: null, connectionIds: [301] })]);
    outputs = up.outputs;
  });

  it("a rename and an attached connection made out of band are found by refresh and undone by up", async () => {
    const drift = await service.api("PUT", `/connection_groups/${outputs.id.value}`, {
      connection_group: { name: "renamed elsewhere" },
      connections: [WAREHOUSE, RAW],
    });
    expect(drift.status).toBe(200);

    const refresh = await test.stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });

    await service.resetRequests();
    const preview = await test.stack.preview({ onOutput });
    expect(preview.changeSummary).toEqual({ update: 1, same: 1 });
    await expectNoWrites();

    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(up.outputs.id.value).toBe(outputs.id.value);
    expect(await groupById(outputs.id.value)).toMatchObject({ name: "analytics", connectionIds: [301] });
  });

  it("a group deleted out of band is dropped by refresh and recreated by up", async () => {
    const deleted = await service.api("DELETE", `/connection_groups/${outputs.id.value}`);
    expect(deleted.status).toBe(200);

    const refresh = await test.stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });

    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(up.outputs.id.value).not.toBe(outputs.id.value);
    expect(await groups()).toEqual([expect.objectContaining({ id: Number(up.outputs.id.value), name: "analytics", connectionIds: [301] })]);
    outputs = up.outputs;
  });

  it("importId of a group that does not exist fails the adoption and keeps nothing", async () => {
    adoptedArgs = { name: "legacy", importId: "9999" };
    const output = await failureOf(test.stack.up({ onOutput }));
    expect(output).toContain("cannot adopt connection group 9999: no connection group 9999 in this account");
    const state = (await test.stack.exportStack()).deployment.resources ?? [];
    expect(state.filter((r: any) => r.type === "pulumi-nodejs:dynamic/etl:ConnectionGroup")).toHaveLength(1);
  });

  it("importId adopts an existing group, updates it in place, and then nothing is left to change", async () => {
    const made = await service.api("POST", "/connection_groups", {
      connection_group: { name: "legacy", description: "Made by hand" },
      connections: [RAW],
    });
    expect(made.status).toBe(201);
    adoptedArgs = { name: "legacy", description: "Managed by Pulumi", connections: [RAW], importId: String(made.body.id) };

    await service.resetRequests();
    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(await calls()).toEqual([`GET /connection_groups/${made.body.id}`, `PUT /connection_groups/${made.body.id}`]);
    expect(up.outputs.adoptedId.value).toBe(String(made.body.id));
    expect(up.outputs.adoptedDescription.value).toBe("Managed by Pulumi");
    expect(await groupById(made.body.id)).toMatchObject({ name: "legacy", description: "Managed by Pulumi", connectionIds: [302] });
    expect(await groups()).toHaveLength(2);

    await service.resetRequests();
    const preview = await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(preview.changeSummary).toEqual({ same: 3 });
    expect(await calls()).toEqual([]);
  });

  it("destroy deletes every group, one call each", async () => {
    await service.resetRequests();
    const destroy = await test.stack.destroy({ onOutput });
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 3 });
    expect((await calls()).sort()).toEqual([`DELETE /connection_groups/${outputs.id.value}`, `DELETE /connection_groups/${adoptedArgs!.importId}`].sort());
    expect(await groups()).toEqual([]);
  });

  it("the API key appears nowhere in the CLI's output", () => {
    expect(cliOutput.join("")).not.toContain(service.apiKey);
  });
});
