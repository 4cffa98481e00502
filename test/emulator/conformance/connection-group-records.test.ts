/** Connection groups on the emulator: reading, creating, changing and deleting one (spec 2.7). */
import { describe, expect, it } from "vitest";
import { createConnectionGroup, deleteConnectionGroup, getConnectionGroup, updateConnectionGroup } from "../../../provider/api/connection-groups";
import { createHttpRequest } from "../../../provider/client/http";
import { NotFoundError, ValidationError } from "../../../provider/client/errors";
import { ACCEPT, ACCOUNT, call, expectError, LEE_KEY, readJson } from "../helpers";
import { DANA, expectGroup, LEE, RAW_EVENTS, REPLICA, useGroupsService, WAREHOUSE } from "./helpers-connection-groups";

const service = useGroupsService();
const { send } = service;

describe("GET /connection_groups/{id}", () => {
  it("answers a seeded group with every field of spec 2.7 and nothing else", async () => {
    const response = await call(service.emulator, "/connection_groups/401");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(ACCEPT);
    const group = expectGroup(await readJson(response));
    expect(group).toMatchObject({
      id: 401,
      name: "warehouses",
      description: "Where curated data lands",
      account_id: 1,
      modified_by: DANA,
      connections: [WAREHOUSE, REPLICA],
    });
  });

  it("is read by the provider's getConnectionGroup", async () => {
    const group = await getConnectionGroup(service.dana, 402);
    expect(group).toMatchObject({ id: 402, name: "landing", description: null, connections: [RAW_EVENTS] });
  });

  it.each([["/connection_groups/999"], ["/connection_groups/abc"], ["/connection_groups/0"]])("answers 404 for %s", async (path) => {
    await expectError(await call(service.emulator, path), 404, "Item not found.");
  });
});

describe("GET /connection_groups", () => {
  it("lists the account's groups in id order", async () => {
    const response = await call(service.emulator, "/connection_groups");
    expect(response.status).toBe(200);
    const groups = ((await readJson(response)) as unknown[]).map(expectGroup);
    expect(groups.map((group) => group.id)).toEqual([401, 402]);
    expect(response.headers.get("link")).toBeNull();
  });
});

describe("POST /connection_groups", () => {
  it("creates a group: 201, modified by the caller, with its connections", async () => {
    const response = await send(
      "POST",
      "/connection_groups",
      { connection_group: { name: "replicas", description: "Read-only copies" }, connections: [{ id: 303, type: "mysql" }] },
      LEE_KEY,
    );
    expect(response.status).toBe(201);
    const group = expectGroup(await readJson(response));
    expect(group).toMatchObject({
      name: "replicas",
      description: "Read-only copies",
      account_id: 1,
      modified_by: LEE,
      connections: [REPLICA],
    });
    expect(group.created_at).toBe(group.updated_at);
    expect(expectGroup(await readJson(await call(service.emulator, `/connection_groups/${group.id}`)))).toEqual(group);
  });

  it("defaults description to null and connections to none", async () => {
    const group = await createConnectionGroup(service.dana, { connection_group: { name: "empty" } });
    expect(group).toMatchObject({ name: "empty", description: null, connections: [], modified_by: DANA });
  });

  it("refuses a name already taken in the account, but not one taken in another account", async () => {
    await expectError(
      await send("POST", "/connection_groups", { connection_group: { name: "warehouses" } }),
      422,
      "connection_group.name has already been taken",
    );
    const response = await send("POST", "/connection_groups", { connection_group: { name: "globex warehouses" } });
    expect(response.status).toBe(201);
  });

  it("reports every problem of a body at once", async () => {
    const response = await send("POST", "/connection_groups", { connection_group: { name: "" }, connections: [{ id: 999, type: "postgres" }] });
    await expectError(response, 422, "connection_group.name must not be blank");
    const semantic = await send("POST", "/connection_groups", { connection_group: { name: "warehouses" }, connections: [{ id: 999, type: "postgres" }] });
    await expectError(semantic, 422, "connection_group.name has already been taken; connections[0].id: no connection 999 in this account");
  });

  it("surfaces a 422 to the provider as a ValidationError with the service's message", async () => {
    await expect(createConnectionGroup(service.dana, { connection_group: { name: "warehouses" } })).rejects.toSatisfy(
      (error: unknown) => error instanceof ValidationError && error.message.includes("connection_group.name has already been taken"),
    );
  });
});

describe("PUT /connection_groups/{id}", () => {
  it("replaces the assignments when connections is given: unlisted detached, new attached", async () => {
    const response = await send("PUT", "/connection_groups/401", {
      connections: [
        { id: 302, type: "s3" },
        { id: 301, type: "postgres" },
      ],
    });
    expect(response.status).toBe(200);
    expect(expectGroup(await readJson(response)).connections).toEqual([WAREHOUSE, RAW_EVENTS]);
    expect((await getConnectionGroup(service.dana, 401)).connections).toEqual([WAREHOUSE, RAW_EVENTS]);
  });

  it("detaches every connection when given an empty list", async () => {
    const group = await updateConnectionGroup(service.dana, 401, { connections: [] });
    expect(group.connections).toEqual([]);
  });

  it("keeps the assignments when connections is left out", async () => {
    const group = await updateConnectionGroup(service.dana, 401, { connection_group: { name: "curated", description: "Renamed" } });
    expect(group).toMatchObject({ name: "curated", description: "Renamed", connections: [WAREHOUSE, REPLICA] });
  });

  it("changes only the fields given, and clears description with null", async () => {
    const renamed = await updateConnectionGroup(service.dana, 401, { connection_group: { name: "curated" } });
    expect(renamed.description).toBe("Where curated data lands");
    const cleared = await updateConnectionGroup(service.dana, 401, { connection_group: { description: null } });
    expect(cleared).toMatchObject({ name: "curated", description: null });
  });

  it("records who changed the group and when; an update that changes nothing records nothing", async () => {
    const before = await getConnectionGroup(service.dana, 401);
    const lee = createHttpRequest({ apiUrl: service.emulator.url, accountId: ACCOUNT, apiKey: LEE_KEY, vendor: "service" });
    const unchanged = await updateConnectionGroup(lee, 401, {
      connection_group: { name: "warehouses" },
      connections: [
        { id: 301, type: "postgres" },
        { id: 303, type: "mysql" },
      ],
    });
    expect(unchanged).toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const changed = await updateConnectionGroup(lee, 401, { connection_group: { description: "Lee's now" } });
    expect(changed.modified_by).toEqual(LEE);
    expect(changed.created_at).toBe(before.created_at);
    expect(changed.updated_at > before.updated_at).toBe(true);
  });

  it("allows keeping its own name but not taking another group's", async () => {
    expect((await send("PUT", "/connection_groups/401", { connection_group: { name: "warehouses" } })).status).toBe(200);
    await expectError(
      await send("PUT", "/connection_groups/401", { connection_group: { name: "landing" } }),
      422,
      "connection_group.name has already been taken",
    );
  });

  it.each([
    ["a connection of no account of the caller", [{ id: 999, type: "postgres" }], "connections[0].id: no connection 999 in this account"],
    [
      "a type that is not the connection's",
      [
        { id: 301, type: "postgres" },
        { id: 302, type: "gs" },
      ],
      "connections[1].type: connection 302 has type s3, not gs",
    ],
    [
      "a connection that cannot join groups",
      [{ id: 304, type: "web_analytics" }],
      "connections[0].id: connection 304 has type web_analytics; only database and cloud-storage connections join groups",
    ],
    [
      "the same connection twice",
      [
        { id: 301, type: "postgres" },
        { id: 301, type: "postgres" },
      ],
      "connections[1].id: connection 301 is listed more than once",
    ],
  ])("refuses %s with 422 and changes nothing", async (_what, connections, message) => {
    await expectError(await send("PUT", "/connection_groups/401", { connections }), 422, message);
    expect((await getConnectionGroup(service.dana, 401)).connections).toEqual([WAREHOUSE, REPLICA]);
  });

  it("answers 404 for an unknown group, before looking at the body", async () => {
    await expectError(await send("PUT", "/connection_groups/999", { connections: "not a list" }), 404, "Item not found.");
    await expect(updateConnectionGroup(service.dana, 999, {})).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("DELETE /connection_groups/{id}", () => {
  it("answers 200 with the deleted group; the group is gone afterwards", async () => {
    const response = await send("DELETE", "/connection_groups/402");
    expect(response.status).toBe(200);
    expect(expectGroup(await readJson(response))).toMatchObject({ id: 402, name: "landing", connections: [RAW_EVENTS] });
    await expectError(await call(service.emulator, "/connection_groups/402"), 404, "Item not found.");
    await expectError(await send("DELETE", "/connection_groups/402"), 404, "Item not found.");
  });

  it("frees the name for a new group", async () => {
    await deleteConnectionGroup(service.dana, 402);
    expect((await createConnectionGroup(service.dana, { connection_group: { name: "landing" } })).name).toBe("landing");
  });
});
