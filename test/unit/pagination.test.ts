/**
 * Following `Link` pages: the header parser (including input built to make a careless parser
 * backtrack), the page cap, loops, and refusing to send the API key outside `{base_url}`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { connectionGroupRecord, createConnectionGroup, searchConnectionGroupsPage } from "../../provider/api/connection-groups";
import { createHttpRequest, ForeignUrlError, type ApiRequest, type ApiResponse, type RequestFn } from "../../provider/client/http";
import { PATHOLOGICAL_LINK_HEADERS } from "../../bench/link-header-cases.mts";
import { collectAllPages, MAX_PAGES, nextLink, PaginationError, parseLinkHeader } from "../../provider/client/pagination";

const ACCOUNT = "acme-pages";
const API_KEY = "pagination-test-key-0001";
const item = z.object({ n: z.number() });

describe("parseLinkHeader", () => {
  it("reads the service's header: targets as given, relations, parameters", () => {
    const header = '<http://h/acme/api/clusters?offset=4&limit=10>; rel="next", <http://h/acme/api/clusters?offset=2&limit=10>; rel="prev"';
    expect(parseLinkHeader(header)).toEqual([
      { url: "http://h/acme/api/clusters?offset=4&limit=10", rel: ["next"], params: { rel: "next" } },
      { url: "http://h/acme/api/clusters?offset=2&limit=10", rel: ["prev"], params: { rel: "prev" } },
    ]);
    expect(nextLink(header)).toBe("http://h/acme/api/clusters?offset=4&limit=10");
  });

  it("reads several links with any spacing, unquoted values and relative targets", () => {
    const header = ' </a?page=1>;rel=first ,<  /a?page=9 >  ;  rel = last,</a?page=3>;rel="next"';
    expect(parseLinkHeader(header).map((l) => [l.url, l.rel])).toEqual([
      ["/a?page=1", ["first"]],
      ["/a?page=9", ["last"]],
      ["/a?page=3", ["next"]],
    ]);
    expect(nextLink(header)).toBe("/a?page=3");
  });

  it("keeps commas, semicolons and escaped quotes inside quoted values", () => {
    const header = '<http://h/x>; title="a, b; <c> \\"d\\""; rel="next", <http://h/y>; rel=prev';
    const links = parseLinkHeader(header);
    expect(links).toHaveLength(2);
    expect(links[0]).toEqual({ url: "http://h/x", rel: ["next"], params: { title: 'a, b; <c> "d"', rel: "next" } });
    expect(links[1]!.rel).toEqual(["prev"]);
  });

  it("reads rel with several relation types, in any case; the first rel counts", () => {
    expect(parseLinkHeader('<http://h/x>; REL="Next  LAST"')[0]!.rel).toEqual(["next", "last"]);
    expect(nextLink('<http://h/last>; rel="last next"')).toBe("http://h/last");
    expect(nextLink('<http://h/x>; rel="prev"; rel="next"')).toBeUndefined();
    expect(nextLink('<http://h/x>; rel="nextpage"')).toBeUndefined();
    expect(parseLinkHeader("<http://h/x>; anchor")[0]!.params).toEqual({ anchor: "" });
  });

  it("skips malformed parts and keeps the well-formed ones; never throws", () => {
    expect(nextLink('garbage; rel="next", <http://h/ok>; rel="next"')).toBe("http://h/ok");
    expect(nextLink('<http://h/a> junk; rel="next", <http://h/b>; rel=next')).toBe("http://h/b");
    expect(parseLinkHeader('<http://h/a>; rel="next')).toEqual([]);
    expect(parseLinkHeader("<http://h/a")).toEqual([]);
    expect(parseLinkHeader("")).toEqual([]);
    expect(parseLinkHeader(undefined)).toEqual([]);
    expect(nextLink(", , ,")).toBeUndefined();
  });

  // Built to make a backtracking parser stall; `npm run bench:link-header` times this one on them.
  it.each(PATHOLOGICAL_LINK_HEADERS)("reads 100,000 characters of %s, finding no next page", (_name, header) => {
    expect(header.length).toBeGreaterThan(90_000);
    expect(nextLink(header)).toBeUndefined();
    expect(Array.isArray(parseLinkHeader(header))).toBe(true);
  });
});

/** A request function that answers every page with one item and a link to a further page. */
function endlessPages(nextUrl: (page: number) => string): { request: RequestFn; calls: ApiRequest[] } {
  const calls: ApiRequest[] = [];
  const request = async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
    calls.push(req);
    const page = calls.length;
    return { status: 200, headers: { link: `<${nextUrl(page)}>; rel="next"` }, body: [{ n: page }] as T, url: req.url ?? "http://h/acme/api/things" };
  };
  return { request: request as RequestFn, calls };
}

describe("collectAllPages", () => {
  it("stops with an error at the page cap instead of following forever", async () => {
    const { request, calls } = endlessPages((page) => `http://h/acme/api/things?offset=${page}`);
    const error = await collectAllPages(request, { method: "GET", path: "/things" }, item, { maxPages: 5, what: "things" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe("stopped after 5 pages of things: the service still announces a next page");
    expect(calls).toHaveLength(5);
  });

  it("has a default cap of 1,000 pages", async () => {
    const { request, calls } = endlessPages((page) => `http://h/acme/api/things?offset=${page}`);
    await expect(collectAllPages(request, { method: "GET", path: "/things" }, item)).rejects.toThrow(`stopped after ${MAX_PAGES} pages of items`);
    expect(MAX_PAGES).toBe(1_000);
    expect(calls).toHaveLength(1_000);
  });

  it("refuses a next link that leads back to a page already read", async () => {
    const { request, calls } = endlessPages(() => "http://h/acme/api/things?offset=1");
    await expect(collectAllPages(request, { method: "GET", path: "/things" }, item, { what: "things" })).rejects.toThrow(
      'the service\'s Link rel="next" leads back to a page already read (/acme/api/things?offset=1) while listing things',
    );
    expect(calls).toHaveLength(2);
  });

  it("follows next links as given, resolving relative ones against the page they came from", async () => {
    const links = ["</acme/api/things?cursor=b>; rel=next", '<?cursor=c>; rel="next"', undefined];
    const calls: ApiRequest[] = [];
    const request = (async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
      calls.push(req);
      const link = links[calls.length - 1];
      return { status: 200, headers: link ? { link } : {}, body: [{ n: calls.length }] as T, url: req.url ?? "http://h/acme/api/things?cursor=a" };
    }) as RequestFn;
    expect(await collectAllPages(request, { method: "GET", path: "/things" }, item)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(calls.map((c) => c.url)).toEqual([undefined, "http://h/acme/api/things?cursor=b", "http://h/acme/api/things?cursor=c"]);
  });

  it("checks every page's items against the schema", async () => {
    const request = (async <T>(): Promise<ApiResponse<T>> => ({ status: 200, headers: {}, body: [{ n: "one" }] as T })) as RequestFn;
    await expect(collectAllPages(request, { method: "GET", path: "/things" }, item, { what: "things" })).rejects.toThrow(
      "the service returned a list of things that does not match the API: 0.n:",
    );
  });
});

describe("following pages of the emulator", () => {
  let emulator: RunningEmulator;
  let request: RequestFn;
  let elsewhere: Server;
  let elsewhereUrl: string;
  const elsewhereRequests: string[] = [];

  const loggedRequests = async () =>
    ((await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as Array<{ path: string; query: string }>).map((r) => `${r.path}?${r.query}`);
  const resetRequests = () => fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });

  /** The real client, with the first answer's Link replaced by `link`. */
  const withFirstLink = (link: string): RequestFn => {
    let answered = 0;
    return (async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
      const response = await request<T>(req);
      return answered++ === 0 ? { ...response, headers: { ...response.headers, link: `<${link}>; rel="next"` } } : response;
    }) as RequestFn;
  };

  beforeAll(async () => {
    emulator = await startEmulator({
      port: 0,
      fixtures: { accounts: [{ id: 1, uid: ACCOUNT, users: [{ id: 1, name: "Pat", email: "pat@example.com", apiKey: API_KEY }] }] },
    });
    request = createHttpRequest({ apiUrl: emulator.url, accountId: ACCOUNT, apiKey: API_KEY, vendor: "service" });
    for (let i = 0; i < 25; i++) await createConnectionGroup(request, { connection_group: { name: `group-${i}` } });
    elsewhere = createServer((req, res) => {
      elsewhereRequests.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
      res.writeHead(200, { "content-type": "application/json" }).end("[]");
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await emulator?.close();
    await new Promise((resolve) => elsewhere?.close(resolve));
  });

  it("reads every page through the service's Link headers", async () => {
    await resetRequests();
    const groups = await collectAllPages(request, (r) => searchConnectionGroupsPage(r, { q: "group", limit: 10 }), connectionGroupRecord);
    expect(groups.map((g) => g.name)).toEqual(Array.from({ length: 25 }, (_, i) => `group-${i}`));
    expect(await loggedRequests()).toEqual([
      `/${ACCOUNT}/api/connection_groups/search?q=group&limit=10`,
      `/${ACCOUNT}/api/connection_groups/search?q=group&offset=10&limit=10`,
      `/${ACCOUNT}/api/connection_groups/search?q=group&offset=20&limit=10`,
    ]);
  });

  const foreign: Array<[string, (base: string) => string, string]> = [
    ["another origin", () => `${elsewhereUrl}/${ACCOUNT}/api/connection_groups/search?q=group&offset=20`, "its origin is not"],
    ["another account on the same host", (base) => `${base}/other-account/api/connection_groups/search?q=group`, `its path is not under /${ACCOUNT}/api`],
    ["a path that climbs out of {base_url}", (base) => `${base}/${ACCOUNT}/api/../../other/api/x`, `its path is not under /${ACCOUNT}/api`],
    ["a look-alike prefix", (base) => `${base}/${ACCOUNT}/apix/connection_groups`, `its path is not under /${ACCOUNT}/api`],
    ["user information", (base) => `${base.replace("http://", "http://someone:secret@")}/${ACCOUNT}/api/x`, "it carries user information"],
    ["https instead of http", (base) => `${base.replace("http://", "https://")}/${ACCOUNT}/api/x`, "its origin is not"],
  ];

  it.each(foreign)("refuses a next link to %s before sending anything", async (_name, target, reason) => {
    await resetRequests();
    elsewhereRequests.length = 0;
    const error = await collectAllPages(withFirstLink(target(emulator.url)), (r) => searchConnectionGroupsPage(r, { q: "group" }), connectionGroupRecord).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ForeignUrlError);
    expect((error as Error).message).toContain("refusing to send the API key to");
    expect((error as Error).message).toContain(reason);
    expect((error as Error).message).not.toContain("secret");
    expect(await loggedRequests()).toHaveLength(1);
    expect(elsewhereRequests).toEqual([]);
  });

  it("sends an absolute url under {base_url} as given", async () => {
    await resetRequests();
    const url = `${emulator.url}/${ACCOUNT}/api/connection_groups/search?limit=3&q=group-1&offset=2`;
    const response = await request<Array<{ name: string }>>({ method: "GET", url });
    expect(response.body.map((g) => g.name)).toEqual(["group-11", "group-12", "group-13"]);
    expect(response.url).toBe(url);
    expect(await loggedRequests()).toEqual([`/${ACCOUNT}/api/connection_groups/search?limit=3&q=group-1&offset=2`]);
  });

  it("refuses a url that is not absolute", async () => {
    await expect(request({ method: "GET", url: "/acme-pages/api/x" })).rejects.toThrow(ForeignUrlError);
  });
});
