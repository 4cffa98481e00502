import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Fixtures, RunningEmulator } from "../../../emulator";
import {
  CONNECTION_GROUP_FIELDS,
  connectionGroupRecord,
  createConnectionGroup,
  deleteConnectionGroup,
  getConnectionGroup,
  searchConnectionGroupsPage,
  updateConnectionGroup,
  type ConnectionGroupRecord,
} from "../../../provider/api/connection-groups";
import { createHttpRequest, type RequestFn } from "../../../provider/client/http";
import { NotFoundError, ValidationError } from "../../../provider/client/errors";
import { ACCEPT, ACCOUNT, basic, call, DANA_KEY, expectError, fetchAsIs, LEE_KEY, nextLink, OTHER_ACCOUNT, OTHER_KEY, readJson, startTestEmulator, startWithClient, testFixtures } from "../helpers";

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DANA = { name: "Dana Platform", email: "dana@example.com" };
const LEE = { name: "Lee Analyst", email: "lee@example.com" };

const WAREHOUSE = { id: 301, name: "warehouse", type: "postgres" };
const RAW_EVENTS = { id: 302, name: "raw-events", type: "s3" };
const REPLICA = { id: 303, name: "reporting-replica", type: "mysql" };

function fixtures(): Fixtures {
  const base = testFixtures();
  const [acme, globex] = base.accounts;
  return {
    accounts: [
      {
        ...acme!,
        connections: [
          WAREHOUSE,
          RAW_EVENTS,
          REPLICA,
          { id: 304, name: "web-analytics", type: "web_analytics", webAnalyticsAccounts: [{ id: "4711" }] },
        ],
        connectionGroups: [
          { id: 401, name: "warehouses", description: "Where curated data lands", connectionIds: [303, 301] },
          { id: 402, name: "landing", description: null, connectionIds: [302] },
        ],
      },
      {
        ...globex!,
        connections: [{ id: 351, name: "globex-db", type: "postgres" }],
        connectionGroups: [{ id: 451, name: "globex warehouses", description: "curated", connectionIds: [351] }],
      },
    ],
  };
}

let emulator: RunningEmulator;
let dana: RequestFn;

beforeEach(async () => {
  ({ emulator, dana } = await startWithClient(fixtures()));
});

afterEach(() => emulator.close());

/** Parses with the provider's schema and checks that no field beyond spec 2.7 appears. */
function expectGroup(body: unknown): ConnectionGroupRecord {
  const group = connectionGroupRecord.parse(body);
  expect(Object.keys(body as object).sort()).toEqual([...CONNECTION_GROUP_FIELDS].sort());
  expect(group.created_at).toMatch(ISO_TIME);
  expect(group.updated_at).toMatch(ISO_TIME);
  return group;
}

function send(method: string, path: string, body?: unknown, key?: string): Promise<Response> {
  return call(emulator, path, { method, body, key });
}

/** Fetches a URL exactly as the service gave it, as a client following `Link` does. */

/** Walks `rel="next"` from the first page; returns every name seen and the number of pages. */
async function walk(firstPath: string): Promise<{ names: string[]; pages: number }> {
  const names: string[] = [];
  let response = await call(emulator, firstPath);
  let pages = 0;
  for (;;) {
    expect(response.status).toBe(200);
    const items = (await readJson(response)) as unknown[];
    names.push(...items.map((item) => expectGroup(item).name));
    pages++;
    const next = nextLink(response);
    if (next === undefined) return { names, pages };
    response = await fetchAsIs(next);
  }
}

describe("GET /connection_groups/{id}", () => {
  it("answers a seeded group with every field of spec 2.7 and nothing else", async () => {
    const response = await call(emulator, "/connection_groups/401");
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
    const group = await getConnectionGroup(dana, 402);
    expect(group).toMatchObject({ id: 402, name: "landing", description: null, connections: [RAW_EVENTS] });
  });

  it.each([["/connection_groups/999"], ["/connection_groups/abc"], ["/connection_groups/0"]])("answers 404 for %s", async (path) => {
    await expectError(await call(emulator, path), 404, "Item not found.");
  });
});

describe("GET /connection_groups", () => {
  it("lists the account's groups in id order", async () => {
    const response = await call(emulator, "/connection_groups");
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
    expect(expectGroup(await readJson(await call(emulator, `/connection_groups/${group.id}`)))).toEqual(group);
  });

  it("defaults description to null and connections to none", async () => {
    const group = await createConnectionGroup(dana, { connection_group: { name: "empty" } });
    expect(group).toMatchObject({ name: "empty", description: null, connections: [], modified_by: DANA });
  });

  it("refuses a name already taken in the account, but not one taken in another account", async () => {
    await expectError(await send("POST", "/connection_groups", { connection_group: { name: "warehouses" } }), 422, "connection_group.name has already been taken");
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
    await expect(createConnectionGroup(dana, { connection_group: { name: "warehouses" } })).rejects.toSatisfy(
      (error: unknown) => error instanceof ValidationError && error.message.includes("connection_group.name has already been taken"),
    );
  });
});

describe("PUT /connection_groups/{id}", () => {
  it("replaces the assignments when connections is given: unlisted detached, new attached", async () => {
    const response = await send("PUT", "/connection_groups/401", { connections: [{ id: 302, type: "s3" }, { id: 301, type: "postgres" }] });
    expect(response.status).toBe(200);
    expect(expectGroup(await readJson(response)).connections).toEqual([WAREHOUSE, RAW_EVENTS]);
    expect((await getConnectionGroup(dana, 401)).connections).toEqual([WAREHOUSE, RAW_EVENTS]);
  });

  it("detaches every connection when given an empty list", async () => {
    const group = await updateConnectionGroup(dana, 401, { connections: [] });
    expect(group.connections).toEqual([]);
  });

  it("keeps the assignments when connections is left out", async () => {
    const group = await updateConnectionGroup(dana, 401, { connection_group: { name: "curated", description: "Renamed" } });
    expect(group).toMatchObject({ name: "curated", description: "Renamed", connections: [WAREHOUSE, REPLICA] });
  });

  it("changes only the fields given, and clears description with null", async () => {
    const renamed = await updateConnectionGroup(dana, 401, { connection_group: { name: "curated" } });
    expect(renamed.description).toBe("Where curated data lands");
    const cleared = await updateConnectionGroup(dana, 401, { connection_group: { description: null } });
    expect(cleared).toMatchObject({ name: "curated", description: null });
  });

  it("records who changed the group and when; an update that changes nothing records nothing", async () => {
    const before = await getConnectionGroup(dana, 401);
    const lee = createHttpRequest({ apiUrl: emulator.url, accountId: ACCOUNT, apiKey: LEE_KEY, vendor: "service" });
    const unchanged = await updateConnectionGroup(lee, 401, { connection_group: { name: "warehouses" }, connections: [{ id: 301, type: "postgres" }, { id: 303, type: "mysql" }] });
    expect(unchanged).toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const changed = await updateConnectionGroup(lee, 401, { connection_group: { description: "Lee's now" } });
    expect(changed.modified_by).toEqual(LEE);
    expect(changed.created_at).toBe(before.created_at);
    expect(changed.updated_at > before.updated_at).toBe(true);
  });

  it("allows keeping its own name but not taking another group's", async () => {
    expect((await send("PUT", "/connection_groups/401", { connection_group: { name: "warehouses" } })).status).toBe(200);
    await expectError(await send("PUT", "/connection_groups/401", { connection_group: { name: "landing" } }), 422, "connection_group.name has already been taken");
  });

  it.each([
    ["a connection of no account of the caller", [{ id: 999, type: "postgres" }], "connections[0].id: no connection 999 in this account"],
    ["a type that is not the connection's", [{ id: 301, type: "postgres" }, { id: 302, type: "gs" }], "connections[1].type: connection 302 has type s3, not gs"],
    ["a connection that cannot join groups", [{ id: 304, type: "web_analytics" }], "connections[0].id: connection 304 has type web_analytics; only database and cloud-storage connections join groups"],
    ["the same connection twice", [{ id: 301, type: "postgres" }, { id: 301, type: "postgres" }], "connections[1].id: connection 301 is listed more than once"],
  ])("refuses %s with 422 and changes nothing", async (_what, connections, message) => {
    await expectError(await send("PUT", "/connection_groups/401", { connections }), 422, message);
    expect((await getConnectionGroup(dana, 401)).connections).toEqual([WAREHOUSE, REPLICA]);
  });

  it("answers 404 for an unknown group, before looking at the body", async () => {
    await expectError(await send("PUT", "/connection_groups/999", { connections: "not a list" }), 404, "Item not found.");
    await expect(updateConnectionGroup(dana, 999, {})).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("DELETE /connection_groups/{id}", () => {
  it("answers 200 with the deleted group; the group is gone afterwards", async () => {
    const response = await send("DELETE", "/connection_groups/402");
    expect(response.status).toBe(200);
    expect(expectGroup(await readJson(response))).toMatchObject({ id: 402, name: "landing", connections: [RAW_EVENTS] });
    await expectError(await call(emulator, "/connection_groups/402"), 404, "Item not found.");
    await expectError(await send("DELETE", "/connection_groups/402"), 404, "Item not found.");
  });

  it("frees the name for a new group", async () => {
    await deleteConnectionGroup(dana, 402);
    expect((await createConnectionGroup(dana, { connection_group: { name: "landing" } })).name).toBe("landing");
  });
});

describe("GET /connection_groups/search", () => {
  it("matches the name as a substring in any case", async () => {
    const page = await searchConnectionGroupsPage(dana, { q: "WAREHOUSE" });
    expect(page.items.map((group) => group.id)).toEqual([401]);
    expect(page.link).toBeUndefined();
  });

  it("matches the description, and never another account's groups", async () => {
    const response = await call(emulator, "/connection_groups/search?q=curated");
    expect(response.status).toBe(200);
    expect(((await readJson(response)) as unknown[]).map((item) => expectGroup(item).id)).toEqual([401]);
  });

  it("answers an empty array when nothing matches", async () => {
    const response = await call(emulator, "/connection_groups/search?q=nothing-like-this");
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual([]);
  });

  it.each([["/connection_groups/search"], ["/connection_groups/search?q="], ["/connection_groups/search?q=%20%20"]])("answers 400 to %s", async (path) => {
    await expectError(await call(emulator, path), 400, "q is required");
  });
});

describe("pagination through Link rel=next", () => {
  async function create25(): Promise<string[]> {
    const names = Array.from({ length: 25 }, (_, i) => `batch ${String(i + 1).padStart(2, "0")}`);
    for (const name of names) await createConnectionGroup(dana, { connection_group: { name, description: "bulk" } });
    return names;
  }

  it("walks a search of 25 matches in pages of 10, fetching each next URL as given", async () => {
    const names = await create25();
    expect(await walk("/connection_groups/search?q=batch&limit=10")).toEqual({ names, pages: 3 });
  });

  it("walks the list the same way", async () => {
    const names = await create25();
    expect(await walk("/connection_groups?limit=10")).toEqual({ names: ["warehouses", "landing", ...names], pages: 3 });
  });

  it("gives the provider the Link header of a search page", async () => {
    await create25();
    const first = await searchConnectionGroupsPage(dana, { q: "batch", limit: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.link).toBe(`<${emulator.url}/${ACCOUNT}/api/connection_groups/search?q=batch&offset=10&limit=10>; rel="next"`);
    const last = await searchConnectionGroupsPage(dana, { q: "batch", offset: 20, limit: 10 });
    expect(last.items.map((group) => group.name)).toEqual(["batch 21", "batch 22", "batch 23", "batch 24", "batch 25"]);
    expect(last.link).toBe(`<${emulator.url}/${ACCOUNT}/api/connection_groups/search?q=batch&offset=10&limit=10>; rel="prev"`);
  });
});

describe("isolation between accounts", () => {
  it("never shows another account's group: get, update and delete answer 404", async () => {
    await expectError(await call(emulator, "/connection_groups/451"), 404, "Item not found.");
    await expectError(await send("PUT", "/connection_groups/451", { connection_group: { name: "stolen" } }), 404, "Item not found.");
    await expectError(await send("DELETE", "/connection_groups/451"), 404, "Item not found.");
    const own = await call(emulator, "/connection_groups/451", { key: OTHER_KEY, account: OTHER_ACCOUNT });
    expect(expectGroup(await readJson(own))).toMatchObject({ name: "globex warehouses", account_id: 2 });
  });

  it("leaves another account's groups out of lists and searches", async () => {
    const list = (await readJson(await call(emulator, "/connection_groups"))) as { id: number }[];
    expect(list.map((group) => group.id)).toEqual([401, 402]);
    expect(await readJson(await call(emulator, "/connection_groups/search?q=globex"))).toEqual([]);
  });

  it("refuses to assign another account's connection", async () => {
    await expectError(await send("PUT", "/connection_groups/401", { connections: [{ id: 351, type: "postgres" }] }), 422, "connections[0].id: no connection 351 in this account");
  });
});

describe("fixtures", () => {
  it.each<[string, number[], RegExp]>([
    ["an unknown connection", [301, 999], /connectionGroups\[0\]\.connectionIds\[1\]: no connection 999 in this account/],
    ["another account's connection", [351], /connectionGroups\[0\]\.connectionIds\[0\]: no connection 351 in this account/],
    ["a connection that cannot join", [304], /connectionGroups\[0\]\.connectionIds\[0\]: a web_analytics connection cannot join a group/],
    ["the same connection twice", [301, 301], /connectionGroups\[0\]\.connectionIds\[1\]: connection 301 is listed twice/],
  ])("refuse a group with %s", async (_what, connectionIds, message) => {
    const bad = fixtures();
    bad.accounts[0]!.connectionGroups = [{ name: "bad", connectionIds }];
    await expect(startTestEmulator(bad)).rejects.toThrow(message);
  });

  it("refuse two groups of an account with the same name", async () => {
    const bad = fixtures();
    bad.accounts[0]!.connectionGroups = [{ name: "twin" }, { name: "twin" }];
    await expect(startTestEmulator(bad)).rejects.toThrow(/connectionGroups\[1\]\.name: duplicate name "twin"/);
  });
});

describe("malformed requests", () => {
  it.each<[string, string, string, unknown, number, string | RegExp]>([
    ["create: body is an array", "POST", "/connection_groups", [], 400, "Request body must be a JSON object."],
    ["create: body is a string", "POST", "/connection_groups", "warehouses", 400, "Request body must be a JSON object."],
    ["create: connection_group missing", "POST", "/connection_groups", {}, 422, "connection_group is required"],
    ["create: connection_group not an object", "POST", "/connection_groups", { connection_group: "x" }, 422, "connection_group must be an object"],
    ["create: name missing", "POST", "/connection_groups", { connection_group: {} }, 422, "connection_group.name is required"],
    ["create: name not a string", "POST", "/connection_groups", { connection_group: { name: 7 } }, 422, "connection_group.name must be a string"],
    ["create: name too long", "POST", "/connection_groups", { connection_group: { name: "x".repeat(256) } }, 422, "connection_group.name must be at most 255 characters"],
    ["create: description not a string", "POST", "/connection_groups", { connection_group: { name: "n", description: 5 } }, 422, "connection_group.description must be a string or null"],
    ["create: unknown top-level key", "POST", "/connection_groups", { connection_group: { name: "n" }, owner: 1 }, 422, "owner is not a known field"],
    ["create: unknown group field", "POST", "/connection_groups", { connection_group: { name: "n", colour: "red" } }, 422, "connection_group.colour is not a known field"],
    ["update: connections not an array", "PUT", "/connection_groups/401", { connections: { id: 301 } }, 422, "connections must be an array"],
    ["update: connection entry not an object", "PUT", "/connection_groups/401", { connections: [301] }, 422, "connections[0] must be an object"],
    ["update: connection id missing", "PUT", "/connection_groups/401", { connections: [{ type: "postgres" }] }, 422, "connections[0].id is required"],
    ["update: connection id a string", "PUT", "/connection_groups/401", { connections: [{ id: "301", type: "postgres" }] }, 422, "connections[0].id must be an integer"],
    ["update: connection id fractional", "PUT", "/connection_groups/401", { connections: [{ id: 301.5, type: "postgres" }] }, 422, "connections[0].id must be an integer"],
    ["update: connection type missing", "PUT", "/connection_groups/401", { connections: [{ id: 301 }] }, 422, "connections[0].type is required"],
    ["update: name null", "PUT", "/connection_groups/401", { connection_group: { name: null } }, 422, "connection_group.name must be a string"],
    ["update: body null", "PUT", "/connection_groups/401", null, 400, "Request body must be a JSON object."],
    ["search: q missing", "GET", "/connection_groups/search?limit=5", undefined, 400, "q is required"],
    ["search: limit too large", "GET", "/connection_groups/search?q=a&limit=101", undefined, 400, /^limit must be/],
    ["search: offset negative", "GET", "/connection_groups/search?q=a&offset=-1", undefined, 400, /^offset must be/],
    ["list: limit zero", "GET", "/connection_groups?limit=0", undefined, 400, /^limit must be/],
    ["listing: wrong kind of connection", "GET", "/connections/301/web_analytics/accounts", undefined, 422, /^connection 301 is a postgres connection/],
    ["delete: id not a number", "DELETE", "/connection_groups/first", undefined, 404, "Item not found."],
  ])("%s", async (_what, method, path, body, status, message) => {
    await expectError(await send(method, path, body), status, message);
  });

  it("answers 415 to a body sent without Content-Type: application/json", async () => {
    const response = await fetch(`${emulator.url}/${ACCOUNT}/api/connection_groups`, {
      method: "POST",
      headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY), "Content-Type": "text/plain" },
      body: JSON.stringify({ connection_group: { name: "n" } }),
    });
    await expectError(response, 415, /Content-Type: application\/json/);
  });

  it("answers 400 to a body that is not JSON", async () => {
    const response = await fetch(`${emulator.url}/${ACCOUNT}/api/connection_groups/401`, {
      method: "PUT",
      headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY), "Content-Type": "application/json" },
      body: "{name:",
    });
    await expectError(response, 400, "Request body is not valid JSON.");
  });

  it("answers 405 with Allow for a method a path does not take", async () => {
    const response = await send("POST", "/connection_groups/search");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });
});
