import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { PublicUrlError, startEmulator, type RunningEmulator, type StartEmulatorOptions } from "../../emulator";
import { ACCEPT, ACCOUNT, basic, call, closedAfterEach, createKey, DANA_KEY, nextLink, readJson, testFixtures } from "./helpers";
import { rawRequest, type RawResponse } from "./raw-http";

/** Links and `url` fields name the emulator's own address, whatever Host a client sends. */

const closeLater = closedAfterEach();

async function start(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = closeLater(await startEmulator({ fixtures: testFixtures(), ...options }));
  // Two keys, so a page of one has a next link.
  await createKey(emulator);
  await createKey(emulator);
  return emulator;
}

function getWithHost(running: RunningEmulator, target: string, host: string): Promise<RawResponse> {
  return rawRequest(running.url, "GET", `/${ACCOUNT}/api${target}`, { Host: host, Accept: ACCEPT, Authorization: basic(DANA_KEY) });
}

async function canListenOn(host: string): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(0, host, () => server.close(() => resolve(true)));
  });
}

describe("the origin of links and url fields", () => {
  it("is the listening address, not the request's Host header", async () => {
    const running = await start();
    const page = await getWithHost(running, "/user/keys?limit=1", "evil.example");
    expect(page.status).toBe(200);
    expect(page.headers.link).toBe(`<${running.url}/${ACCOUNT}/api/user/keys?offset=1&limit=1>; rel="next"`);
    const [key] = JSON.parse(page.body);
    expect(key.url).toBe(`${running.url}/${ACCOUNT}/api/user/keys/${key.id}`);
    expect(page.body).not.toContain("evil.example");
  });

  it("is the public URL when one is given, also for html_url", async () => {
    const running = await start({ publicUrl: "https://etl.example:8443/" });
    const page = await getWithHost(running, "/user/keys?limit=1", "evil.example");
    expect(page.headers.link).toBe(`<https://etl.example:8443/${ACCOUNT}/api/user/keys?offset=1&limit=1>; rel="next"`);
    expect(JSON.parse(page.body)[0].url).toMatch(new RegExp(`^https://etl\\.example:8443/${ACCOUNT}/api/user/keys/\\d+$`));
    const cluster = await readJson(await call(running, "/clusters", { method: "POST", body: { nodes: 1, name: "linked" } }));
    expect(cluster.url).toBe(`https://etl.example:8443/${ACCOUNT}/api/clusters/${cluster.id}`);
    expect(cluster.html_url).toBe(`https://etl.example:8443/${ACCOUNT}/clusters/${cluster.id}`);
  });

  it("keeps the url property the listening address when a public URL is given", async () => {
    const running = await start({ publicUrl: "http://etl.example" });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(nextLink(await call(running, "/user/keys?limit=1"))).toBe(`http://etl.example/${ACCOUNT}/api/user/keys?offset=1&limit=1`);
  });

  it("brackets an IPv6 listening address", async (context) => {
    if (!(await canListenOn("::1"))) context.skip();
    const running = await start({ host: "::1" });
    expect(running.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    const page = await getWithHost(running, "/user/keys?limit=1", "evil.example");
    expect(page.headers.link).toBe(`<${running.url}/${ACCOUNT}/api/user/keys?offset=1&limit=1>; rel="next"`);
  });

  it.each([
    ["etl.example", /^invalid publicUrl "etl\.example": expected an absolute URL/],
    ["ftp://etl.example", /the scheme must be http or https/],
    ["http://user:secret@etl.example", /it must not contain user information/],
    ["http://etl.example/base", /it must not have a path, query or fragment/],
    ["http://etl.example?x=1", /it must not have a path, query or fragment/],
    ["http://etl.example/#top", /it must not have a path, query or fragment/],
  ])("rejects the public URL %j", async (publicUrl, message) => {
    const started = startEmulator({ fixtures: testFixtures(), publicUrl });
    await expect(started).rejects.toThrow(PublicUrlError);
    await expect(started).rejects.toThrow(message);
  });
});
