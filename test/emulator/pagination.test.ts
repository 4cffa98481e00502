import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { ACCOUNT, call, ed25519Key, startTestEmulator, readJson } from "./helpers";

let emulator: RunningEmulator;
let ids: number[];

beforeAll(async () => {
  emulator = await startTestEmulator();
  ids = [];
  for (let i = 1; i <= 25; i++) {
    const response = await call(emulator, "/user/keys", { method: "POST", body: { name: `key ${i}`, public_key: ed25519Key().line } });
    ids.push((await readJson(response)).id);
  }
});

afterAll(async () => {
  await emulator.close();
});

async function page(query: string): Promise<{ ids: number[]; link: string | null; status: number }> {
  const response = await call(emulator, `/user/keys${query}`);
  const body = (await readJson(response)) as { id: number }[];
  return { ids: body.map((key) => key.id), link: response.headers.get("link"), status: response.status };
}

describe("offset and limit", () => {
  const base = (): string => `${emulator.url}/${ACCOUNT}/api/user/keys`;

  it("defaults to the first 20 items with a next link", async () => {
    const first = await page("");
    expect(first.ids).toEqual(ids.slice(0, 20));
    expect(first.link).toBe(`<${base()}?offset=20&limit=20>; rel="next"`);
  });

  it("walks pages of 10 with exact next and prev links", async () => {
    const first = await page("?limit=10");
    expect(first.ids).toEqual(ids.slice(0, 10));
    expect(first.link).toBe(`<${base()}?offset=10&limit=10>; rel="next"`);

    const second = await page("?offset=10&limit=10");
    expect(second.ids).toEqual(ids.slice(10, 20));
    expect(second.link).toBe(`<${base()}?offset=20&limit=10>; rel="next", <${base()}?offset=0&limit=10>; rel="prev"`);

    const third = await page("?offset=20&limit=10");
    expect(third.ids).toEqual(ids.slice(20, 25));
    expect(third.link).toBe(`<${base()}?offset=10&limit=10>; rel="prev"`);
  });

  it("follows next links to collect every item exactly once", async () => {
    const seen: number[] = [];
    let url: string | undefined = `${base()}?limit=7`;
    while (url !== undefined) {
      const response = await call(emulator, url.slice(`${emulator.url}/${ACCOUNT}/api`.length));
      seen.push(...((await readJson(response)) as { id: number }[]).map((key) => key.id));
      url = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
    }
    expect(seen).toEqual(ids);
  });

  it("does not go below offset 0 in prev links", async () => {
    const result = await page("?offset=3&limit=10");
    expect(result.ids).toEqual(ids.slice(3, 13));
    expect(result.link).toBe(`<${base()}?offset=13&limit=10>; rel="next", <${base()}?offset=0&limit=10>; rel="prev"`);
  });

  it("has no Link header when everything fits on one page", async () => {
    const result = await page("?limit=100");
    expect(result.ids).toEqual(ids);
    expect(result.link).toBeNull();
  });

  it("returns an empty page past the end, with a prev link", async () => {
    const result = await page("?offset=40&limit=10");
    expect(result.ids).toEqual([]);
    expect(result.link).toBe(`<${base()}?offset=30&limit=10>; rel="prev"`);
  });

  it("keeps other query parameters in the links", async () => {
    const result = await page("?sort=name&direction=desc&limit=10");
    expect(result.link).toBe(`<${base()}?sort=name&direction=desc&offset=10&limit=10>; rel="next"`);
  });

  it.each([
    ["limit=0", "limit must be an integer between 1 and 100"],
    ["limit=101", "limit must be an integer between 1 and 100"],
    ["limit=abc", "limit must be an integer between 1 and 100"],
    ["limit=", "limit must be an integer between 1 and 100"],
    ["limit=2.5", "limit must be an integer between 1 and 100"],
    ["offset=-1", "offset must be an integer greater than or equal to 0"],
    ["offset=x", "offset must be an integer greater than or equal to 0"],
  ])("answers 400 for %s", async (query, message) => {
    const response = await call(emulator, `/user/keys?${query}`);
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({ message });
  });

  it("accepts the bounds", async () => {
    expect((await page("?limit=1")).ids).toEqual(ids.slice(0, 1));
    expect((await page("?limit=100&offset=0")).status).toBe(200);
  });
});
