/**
 * Form-style parameters in the query string of a bodiless POST or PUT are read as the fields of
 * a JSON body, as the real service reads them; a body, when there is one, is what counts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { formBody } from "../../emulator/form-query";
import { ACCEPT, ACCOUNT, basic, DANA_KEY, readJson, startTestEmulator } from "./helpers";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(async () => {
  await emulator.close();
});

function post(method: string, path: string, query: string): Promise<Response> {
  return fetch(`${emulator.url}/${ACCOUNT}/api${path}?${query}`, { method, headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY) } });
}

describe("form-style parameters", () => {
  it("nest by brackets, list by empty brackets, and read digits as numbers", () => {
    const query = new URLSearchParams("a[b]=1&a[c]=x&tags[]=one&tags[]=2&task[packages][][package_id]=101&task[packages][][variables][r]=eu&task[packages][][package_id]=102");
    expect(formBody(query)).toEqual({
      a: { b: 1, c: "x" },
      tags: ["one", 2],
      task: { packages: [{ package_id: 101, variables: { r: "eu" } }, { package_id: 102 }] },
    });
    expect(formBody(new URLSearchParams(""))).toBeUndefined();
  });

  it("make a group with a POST and rename it with a PUT, as the same fields in JSON would", async () => {
    const created = await post("POST", "/connection_groups", "connection_group[name]=form-made&connection_group[description]=by%20form");
    expect(created.status).toBe(201);
    const group = await readJson(created);
    expect(group).toMatchObject({ name: "form-made", description: "by form" });
    const renamed = await post("PUT", `/connection_groups/${group.id}`, "connection_group[name]=form-renamed");
    expect(renamed.status).toBe(200);
    expect(await readJson(renamed)).toMatchObject({ name: "form-renamed", description: "by form" });
  });

  it("are refused by the same rules as JSON, naming the field", async () => {
    const response = await post("POST", "/connection_groups", "connection_group[colour]=red");
    expect(response.status).toBe(422);
    expect((await readJson(response)).message).toMatch(/connection_group\.(name is required|colour is not a known field)/);
  });

  it("count only without a body: a body that is not JSON is refused as ever", async () => {
    const bad = await fetch(`${emulator.url}/${ACCOUNT}/api/connection_groups?connection_group[name]=x`, {
      method: "POST",
      headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY), "Content-Type": "application/json" },
      body: "name=x",
    });
    expect(bad.status).toBe(400);
    expect((await readJson(bad)).message).toBe("Request body is not valid JSON.");
  });
});
