/** Reads of one kind answered from its listing, however they arrive: the call budget, objects gone, written and failing pages. */
import { z } from "zod";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import type { ApiRequest, ApiResponse } from "../../provider/client/http";
import { batchedRead, createBatchedReads, markWritten } from "../../provider/resources/shared/batched-reads";

const item = z.object({ id: z.number(), name: z.string() });
const BASE = "http://service.test/acme/api";

/** A service of `count` objects listed 100 a page; `failPage` answers 500 for that page. */
function service(count: number, options: { failPage?: number } = {}) {
  const calls: string[] = [];
  const ids = Array.from({ length: count }, (_, i) => i + 1);
  const request = async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
    const url = "url" in req && req.url !== undefined ? new URL(req.url) : new URL(`${BASE}${(req as { path: string }).path}`);
    for (const [name, value] of Object.entries((req as { query?: Record<string, unknown> }).query ?? {})) url.searchParams.set(name, String(value));
    calls.push(url.pathname.replace("/acme/api", "") + url.search);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    if (options.failPage !== undefined && offset / 100 === options.failPage) throw new Error("500");
    const items = ids.slice(offset, offset + 100).map((id) => ({ id, name: `o${id}` }));
    const link = offset + 100 < count ? `<${BASE}/things?offset=${offset + 100}&limit=100>; rel="next"` : undefined;
    return { status: 200, headers: link === undefined ? {} : { link }, body: items as T, url: url.toString() };
  };
  const get = (id: number) => async () => {
    calls.push(`/things/${id}`);
    if (!ids.includes(id)) throw new Error("404");
    return { id, name: `o${id}` };
  };
  return { calls, request, get };
}

const listing = { listing: { method: "GET" as const, path: "/things", query: { limit: 100 } }, item };

const datedItem = z.object({ id: z.number(), name: z.string(), created_at: z.string() });
const datedListing = { ...listing, item: datedItem, createdOf: (thing: unknown) => (thing as { created_at: string }).created_at };

/**
 * A service listing, in order of creation, `history` objects made before `count` others (ids
 * from 1, one second apart), 100 a page, and taking `since`; the `gone` ones are deleted.
 */
function historyService(history: number, count: number, options: { gone?: number[] } = {}) {
  const calls: string[] = [];
  const createdAt = (id: number) => new Date(Date.UTC(2026, 0, 1) + id * 1000).toISOString();
  const ids = Array.from({ length: history + count }, (_, i) => i + 1).filter((id) => !options.gone?.includes(id));
  const request = async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
    const url = "url" in req && req.url !== undefined ? new URL(req.url) : new URL(`${BASE}${(req as { path: string }).path}`);
    for (const [name, value] of Object.entries((req as { query?: Record<string, unknown> }).query ?? {})) url.searchParams.set(name, String(value));
    calls.push(url.pathname.replace("/acme/api", "") + url.search);
    const since = url.searchParams.get("since");
    const listed = ids.filter((id) => since === null || createdAt(id) >= since);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const items = listed.slice(offset, offset + 100).map((id) => ({ id, name: `o${id}`, created_at: createdAt(id) }));
    const sinceParam = since === null ? "" : `since=${encodeURIComponent(since)}&`;
    const link = offset + 100 < listed.length ? `<${BASE}/things?${sinceParam}offset=${offset + 100}&limit=100>; rel="next"` : undefined;
    return { status: 200, headers: link === undefined ? {} : { link }, body: items as T, url: url.toString() };
  };
  const get = (id: number) => async () => {
    calls.push(`/things/${id}`);
    if (!ids.includes(id)) throw new Error("404");
    return { id, name: `o${id}`, created_at: createdAt(id) };
  };
  return { calls, request, get, createdAt };
}
let kinds = 0;
const freshKind = () => `thing-${++kinds}`;

describe("batched reads", () => {
  const reads = createBatchedReads();

  it("answers 250 reads at once from 3 pages", async () => {
    const { calls, request, get } = service(250);
    const kind = freshKind();
    const records = await Promise.all(Array.from({ length: 250 }, (_, i) => batchedRead(reads, request, kind, listing, { id: String(i + 1) }, get(i + 1))));
    expect(records.map((r) => r.id)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(calls).toEqual(["/things?limit=100", "/things?offset=100&limit=100", "/things?offset=200&limit=100"]);
  });

  it("reads a lone object by GET, and two that come together from the listing's first page", async () => {
    const { calls, request, get } = service(250);
    await batchedRead(reads, request, freshKind(), listing, { id: "5" }, get(5));
    expect(calls).toEqual(["/things/5"]);
    calls.length = 0;
    const kind = freshKind();
    await Promise.all([batchedRead(reads, request, kind, listing, { id: "5" }, get(5)), batchedRead(reads, request, kind, listing, { id: "7" }, get(7))]);
    expect(calls).toEqual(["/things?limit=100"]);
  });

  it("gathers reads that a busy engine sends tens of milliseconds apart", async () => {
    const { calls, request, get } = service(250);
    const kind = freshKind();
    const answers: Array<Promise<{ id: number }>> = [];
    for (const id of [1, 2, 3, 4]) {
      answers.push(batchedRead(reads, request, kind, listing, { id: String(id) }, get(id)));
      await delay(30);
    }
    expect((await Promise.all(answers)).map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(calls).toEqual(["/things?limit=100"]);
  });

  it("reads one object by GET before the listing when each read waits for the one before (--parallel 1)", async () => {
    const { calls, request, get } = service(250);
    const kind = freshKind();
    for (let id = 1; id <= 250; id++) expect((await batchedRead(reads, request, kind, listing, { id: String(id) }, get(id))).id).toBe(id);
    expect(calls).toEqual(["/things/1", "/things?limit=100", "/things?offset=100&limit=100", "/things?offset=200&limit=100"]);
  });

  /** The stack's 250 objects behind 1,000 older ones, read one at a time in `order`, each answered rightly: the calls made. */
  async function readOneAtATime(order: number[]): Promise<{ calls: string[]; since: (id: number) => string }> {
    const { calls, request, get, createdAt } = historyService(1000, 250);
    const kind = freshKind();
    for (const id of order) {
      expect((await batchedRead(reads, request, kind, datedListing, { id: String(id), createdAt: createdAt(id) }, get(id))).id).toBe(id);
    }
    return { calls, since: (id) => encodeURIComponent(createdAt(id)) };
  }

  /** The first read's GET, the history's first page, then the listing from the stack's oldest object. */
  const fromTheOldest = (since: string) => [
    "/things/1001",
    "/things?limit=100",
    `/things?limit=100&since=${since}`,
    `/things?since=${since}&offset=100&limit=100`,
    `/things?since=${since}&offset=200&limit=100`,
  ];

  it("reads the listing from the stack's oldest object one read at a time too, behind a long history", async () => {
    const { calls, since } = await readOneAtATime(Array.from({ length: 250 }, (_, i) => 1001 + i));
    // From the first object read, answered by its own GET: the oldest of the stack's the snapshot has seen.
    expect(calls).toEqual(fromTheOldest(since(1001)));
  });

  it("answers from the skipped-to listing an object read one at a time after one made just after it", async () => {
    // The engine's order, near that of creation: the first, then each pair the other way round (1003 before 1002).
    const { calls, since } = await readOneAtATime([1001, ...Array.from({ length: 124 }, (_, i) => [1003 + 2 * i, 1002 + 2 * i]).flat(), 1250]);
    expect(calls).toEqual(fromTheOldest(since(1001)));
  });

  it("reads objects made in what the listing skipped from the oldest of them, one page for all", async () => {
    // The first two reads are of objects made after five others of the stack, read next.
    const { calls, since } = await readOneAtATime([1006, 1007, 1001, 1002, 1003, 1004, 1005, ...Array.from({ length: 243 }, (_, i) => 1008 + i)]);
    const [from1006, from1001] = [since(1006), since(1001)];
    expect(calls).toEqual([
      "/things/1006",
      "/things?limit=100",
      `/things?limit=100&since=${from1006}`,
      `/things?limit=100&since=${from1001}`,
      `/things?since=${from1001}&offset=100&limit=100`,
      `/things?since=${from1001}&offset=200&limit=100`,
    ]);
  });

  it("keeps the pages while the reads keep coming, and starts anew after a minute without one", async () => {
    const { calls, request, get } = service(250);
    const kind = freshKind();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await Promise.all([1, 2].map((id) => batchedRead(reads, request, kind, listing, { id: String(id) }, get(id))));
      for (let id = 3; id <= 5; id++) {
        vi.advanceTimersByTime(50_000);
        await batchedRead(reads, request, kind, listing, { id: String(id) }, get(id));
      }
      expect(calls).toEqual(["/things?limit=100"]);
      vi.advanceTimersByTime(61_000);
      await batchedRead(reads, request, kind, listing, { id: "6" }, get(6));
      expect(calls).toEqual(["/things?limit=100", "/things/6"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("never spends more than N + 2 calls for N objects among many", async () => {
    const { calls, request, get } = service(5000);
    const kind = freshKind();
    const wanted = [4990, 4991, 4992, 4993, 4994];
    await Promise.all(wanted.map((id) => batchedRead(reads, request, kind, listing, { id: String(id) }, get(id))));
    expect(calls.length).toBeLessThanOrEqual(wanted.length + 2);
    expect(calls.filter((call) => call.startsWith("/things/"))).toHaveLength(wanted.length);
  });

  it("confirms an object the listing lacks by its own GET, and reads a written one fresh", async () => {
    const { calls, request, get } = service(150);
    const kind = freshKind();
    const answers = [1, 2, 3, 200].map((id) => batchedRead(reads, request, kind, listing, { id: String(id) }, get(id)).catch((e: Error) => e.message));
    expect(await Promise.all(answers)).toEqual([{ id: 1, name: "o1" }, { id: 2, name: "o2" }, { id: 3, name: "o3" }, "404"]);
    expect(calls).toContain("/things/200");
    markWritten(reads, kind, "2");
    calls.length = 0;
    await batchedRead(reads, request, kind, listing, { id: "2" }, get(2));
    await batchedRead(reads, request, kind, listing, { id: "3" }, get(3));
    expect(calls).toEqual(["/things/2"]);
  });

  it("skips a long history made before the objects it looks for, where the listing takes since", async () => {
    const { calls, request, get, createdAt } = historyService(1000, 250);
    const kind = freshKind();
    const ids = Array.from({ length: 250 }, (_, i) => 1001 + i);
    const records = await Promise.all(ids.map((id) => batchedRead(reads, request, kind, datedListing, { id: String(id), createdAt: createdAt(id) }, get(id))));
    expect(records.map((r) => r.id)).toEqual(ids);
    // The first page holds none of them: the next starts at the oldest, and the listing goes on from there.
    const since = encodeURIComponent(createdAt(1001));
    expect(calls).toEqual([
      "/things?limit=100",
      `/things?limit=100&since=${since}`,
      `/things?since=${since}&offset=100&limit=100`,
      `/things?since=${since}&offset=200&limit=100`,
    ]);
  });

  it("reads by GET an object made before the listing's last item and not in it", async () => {
    const { calls, request, get, createdAt } = historyService(0, 150, { gone: [50] });
    const kind = freshKind();
    const answers = [10, 20, 50].map((id) =>
      batchedRead(reads, request, kind, datedListing, { id: String(id), createdAt: createdAt(id) }, get(id)).catch((e: Error) => e.message),
    );
    expect((await Promise.all(answers)).map((a) => (typeof a === "string" ? a : a.id))).toEqual([10, 20, "404"]);
    expect(calls).toEqual(["/things?limit=100", "/things/50"]);
  });

  it("goes back to single reads when a page fails", async () => {
    const { calls, request, get } = service(250, { failPage: 1 });
    const kind = freshKind();
    const records = await Promise.all([10, 150, 160, 240].map((id) => batchedRead(reads, request, kind, listing, { id: String(id) }, get(id))));
    expect(records.map((r) => r.id)).toEqual([10, 150, 160, 240]);
    expect(calls.filter((call) => call.startsWith("/things/")).sort()).toEqual(["/things/150", "/things/160", "/things/240"]);
  });
});
