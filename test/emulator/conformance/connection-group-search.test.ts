/** Connection groups on the emulator: search, pages followed through `Link`, and other accounts' groups kept apart. */
import { describe, expect, it } from "vitest";
import { createConnectionGroup, searchConnectionGroupsPage } from "../../../provider/api/connection-groups";
import { ACCOUNT, call, expectError, fetchAsIs, nextLink, OTHER_ACCOUNT, OTHER_KEY, readJson } from "../helpers";
import { expectGroup, useGroupsService } from "./helpers-connection-groups";

const service = useGroupsService();
const { send } = service;

/** Walks `rel="next"` from the first page; returns every name seen and the number of pages. */
async function walk(firstPath: string): Promise<{ names: string[]; pages: number }> {
  const names: string[] = [];
  let response = await call(service.emulator, firstPath);
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

describe("GET /connection_groups/search", () => {
  it("matches the name as a substring in any case", async () => {
    const page = await searchConnectionGroupsPage(service.dana, { q: "WAREHOUSE" });
    expect(page.items.map((group) => group.id)).toEqual([401]);
    expect(page.link).toBeUndefined();
  });

  it("matches the description, and never another account's groups", async () => {
    const response = await call(service.emulator, "/connection_groups/search?q=curated");
    expect(response.status).toBe(200);
    expect(((await readJson(response)) as unknown[]).map((item) => expectGroup(item).id)).toEqual([401]);
  });

  it("answers an empty array when nothing matches", async () => {
    const response = await call(service.emulator, "/connection_groups/search?q=nothing-like-this");
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual([]);
  });

  it.each([["/connection_groups/search"], ["/connection_groups/search?q="], ["/connection_groups/search?q=%20%20"]])("answers 400 to %s", async (path) => {
    await expectError(await call(service.emulator, path), 400, "q is required");
  });
});

describe("pagination through Link rel=next", () => {
  async function create25(): Promise<string[]> {
    const names = Array.from({ length: 25 }, (_, i) => `batch ${String(i + 1).padStart(2, "0")}`);
    for (const name of names) await createConnectionGroup(service.dana, { connection_group: { name, description: "bulk" } });
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
    const first = await searchConnectionGroupsPage(service.dana, { q: "batch", limit: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.link).toBe(`<${service.emulator.url}/${ACCOUNT}/api/connection_groups/search?q=batch&offset=10&limit=10>; rel="next"`);
    const last = await searchConnectionGroupsPage(service.dana, { q: "batch", offset: 20, limit: 10 });
    expect(last.items.map((group) => group.name)).toEqual(["batch 21", "batch 22", "batch 23", "batch 24", "batch 25"]);
    expect(last.link).toBe(`<${service.emulator.url}/${ACCOUNT}/api/connection_groups/search?q=batch&offset=10&limit=10>; rel="prev"`);
  });
});

describe("isolation between accounts", () => {
  it("never shows another account's group: get, update and delete answer 404", async () => {
    await expectError(await call(service.emulator, "/connection_groups/451"), 404, "Item not found.");
    await expectError(await send("PUT", "/connection_groups/451", { connection_group: { name: "stolen" } }), 404, "Item not found.");
    await expectError(await send("DELETE", "/connection_groups/451"), 404, "Item not found.");
    const own = await call(service.emulator, "/connection_groups/451", { key: OTHER_KEY, account: OTHER_ACCOUNT });
    expect(expectGroup(await readJson(own))).toMatchObject({ name: "globex warehouses", account_id: 2 });
  });

  it("leaves another account's groups out of lists and searches", async () => {
    const list = (await readJson(await call(service.emulator, "/connection_groups"))) as { id: number }[];
    expect(list.map((group) => group.id)).toEqual([401, 402]);
    expect(await readJson(await call(service.emulator, "/connection_groups/search?q=globex"))).toEqual([]);
  });

  it("refuses to assign another account's connection", async () => {
    await expectError(
      await send("PUT", "/connection_groups/401", { connections: [{ id: 351, type: "postgres" }] }),
      422,
      "connections[0].id: no connection 351 in this account",
    );
  });
});
