/**
 * Form-style parameters in the query string of a bodiless POST or PUT are read as the fields of
 * a JSON body, as the real service reads them; a body, when there is one, is what counts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { formBody, objectNamesOf } from "../../emulator/form-query";
import { ACCEPT, ACCOUNT, basic, DANA_KEY, ed25519Key, readJson, startTestEmulator, testFixtures } from "./helpers";

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
    const query = new URLSearchParams(
      "a[b]=1&a[c]=x&tags[]=one&tags[]=2&task[packages][][package_id]=101&task[packages][][variables][r]=eu&task[packages][][package_id]=102",
    );
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

describe("form-style parameters wrapped in the object's name, as Rails-style clients send them", () => {
  let billed: RunningEmulator;
  const send = (method: string, path: string, query: string) =>
    fetch(`${billed.url}/${ACCOUNT}/api${path}?${query}`, { method, headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY) } });

  beforeAll(async () => {
    const fixtures = testFixtures();
    Object.assign(fixtures.accounts![0]!, { clusters: [{ id: 11, name: "ready", nodes: 2 }], packages: [{ id: 12, name: "rollup" }] });
    billed = await startTestEmulator(fixtures);
  });

  afterAll(async () => {
    await billed.close();
  });

  it("name the object from the path: the singular of each segment", () => {
    expect(objectNamesOf("/clusters/5")).toEqual(["cluster"]);
    expect(objectNamesOf("/connection_groups")).toEqual(["connection_group"]);
    expect(objectNamesOf("/deliveries/3")).toEqual(["delivery"]);
    expect(objectNamesOf("/user/keys")).toEqual(["user", "key"]);
  });

  it("make and change a cluster: cluster[nodes], cluster[type], cluster[description]", async () => {
    const created = await send("POST", "/clusters", "cluster[nodes]=1&cluster[type]=sandbox");
    expect(created.status).toBe(201);
    const cluster = await readJson(created);
    expect(cluster).toMatchObject({ nodes: 1, type: "sandbox" });
    const changed = await send("PUT", `/clusters/${cluster.id}`, "cluster[description]=by%20form");
    expect(changed.status).toBe(200);
    expect(await readJson(changed)).toMatchObject({ id: cluster.id, description: "by form" });
  });

  it("run a job: job[cluster_id], job[package_id]", async () => {
    const run = await send("POST", "/jobs", "job[cluster_id]=11&job[package_id]=12");
    expect(run.status).toBe(201);
    expect(await readJson(run)).toMatchObject({ cluster_id: 11, package_id: 12 });
  });

  it("make a hook, whose type picks its settings: hook[type], hook[events][], hook[settings][...]", async () => {
    const made = await send("POST", "/hooks", "hook[type]=email&hook[events][]=job&hook[settings][emails]=ops%40example.com");
    expect(made.status).toBe(201);
    expect(await readJson(made)).toMatchObject({ type: "email", events: ["job"] });
  });

  it("make a public key below /user/keys: key[public_key]", async () => {
    const made = await send("POST", "/user/keys", `key[public_key]=${encodeURIComponent(ed25519Key("form").line)}`);
    expect(made.status).toBe(201);
  });

  it("still refuse fields wrapped in any other name, naming them, and wrapped fields the object lacks", async () => {
    const other = await send("POST", "/clusters", "colour[nodes]=1");
    expect(other.status).toBe(422);
    expect((await readJson(other)).message).toMatch(/colour is not a known field/);
    const unknown = await send("POST", "/clusters", "cluster[nodes]=1&cluster[colour]=red");
    expect(unknown.status).toBe(422);
    expect((await readJson(unknown)).message).toMatch(/colour is not a known field/);
  });
});
