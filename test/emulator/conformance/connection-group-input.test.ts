/** Connection groups on the emulator: fixtures it refuses, and malformed requests answered with the rule they break. */
import { describe, expect, it } from "vitest";
import { ACCEPT, ACCOUNT, basic, DANA_KEY, expectError, startTestEmulator } from "../helpers";
import { groupFixtures, useGroupsService } from "./helpers-connection-groups";

const service = useGroupsService();
const { send } = service;

describe("fixtures", () => {
  it.each<[string, number[], RegExp]>([
    ["an unknown connection", [301, 999], /connectionGroups\[0\]\.connectionIds\[1\]: no connection 999 in this account/],
    ["another account's connection", [351], /connectionGroups\[0\]\.connectionIds\[0\]: no connection 351 in this account/],
    ["a connection that cannot join", [304], /connectionGroups\[0\]\.connectionIds\[0\]: a web_analytics connection cannot join a group/],
    ["the same connection twice", [301, 301], /connectionGroups\[0\]\.connectionIds\[1\]: connection 301 is listed twice/],
  ])("refuse a group with %s", async (_what, connectionIds, message) => {
    const bad = groupFixtures();
    bad.accounts[0]!.connectionGroups = [{ name: "bad", connectionIds }];
    await expect(startTestEmulator(bad)).rejects.toThrow(message);
  });

  it("refuse two groups of an account with the same name", async () => {
    const bad = groupFixtures();
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
    [
      "create: name too long",
      "POST",
      "/connection_groups",
      { connection_group: { name: "x".repeat(256) } },
      422,
      "connection_group.name must be at most 255 characters",
    ],
    [
      "create: description not a string",
      "POST",
      "/connection_groups",
      { connection_group: { name: "n", description: 5 } },
      422,
      "connection_group.description must be a string or null",
    ],
    ["create: unknown top-level key", "POST", "/connection_groups", { connection_group: { name: "n" }, owner: 1 }, 422, "owner is not a known field"],
    [
      "create: unknown group field",
      "POST",
      "/connection_groups",
      { connection_group: { name: "n", colour: "red" } },
      422,
      "connection_group.colour is not a known field",
    ],
    ["update: connections not an array", "PUT", "/connection_groups/401", { connections: { id: 301 } }, 422, "connections must be an array"],
    ["update: connection entry not an object", "PUT", "/connection_groups/401", { connections: [301] }, 422, "connections[0] must be an object"],
    ["update: connection id missing", "PUT", "/connection_groups/401", { connections: [{ type: "postgres" }] }, 422, "connections[0].id is required"],
    [
      "update: connection id a string",
      "PUT",
      "/connection_groups/401",
      { connections: [{ id: "301", type: "postgres" }] },
      422,
      "connections[0].id must be an integer",
    ],
    [
      "update: connection id fractional",
      "PUT",
      "/connection_groups/401",
      { connections: [{ id: 301.5, type: "postgres" }] },
      422,
      "connections[0].id must be an integer",
    ],
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
    const response = await fetch(`${service.emulator.url}/${ACCOUNT}/api/connection_groups`, {
      method: "POST",
      headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY), "Content-Type": "text/plain" },
      body: JSON.stringify({ connection_group: { name: "n" } }),
    });
    await expectError(response, 415, /Content-Type: application\/json/);
  });

  it("answers 400 to a body that is not JSON", async () => {
    const response = await fetch(`${service.emulator.url}/${ACCOUNT}/api/connection_groups/401`, {
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
