/**
 * Reads of many objects of one kind (a refresh, `up --refresh`) answered from the kind's listing,
 * 100 objects a page, instead of one GET each, for the kinds whose listing returns the record
 * their GET does. The rules:
 * - a read that arrives alone is a GET, as ever: it waits QUIET_MS for another of its kind, and
 *   the listing starts as soon as the snapshot has seen BATCH_MIN reads of the kind. Counting
 *   every read since the snapshot began, not only those of one wait, keeps the reads made by GET
 *   before the listing at BATCH_MIN - 1 however the engine sends them: all at once, a few at a
 *   time, or one after the other (`--parallel 1`, where each read waits for the one before to
 *   be answered). A refresh of N objects then costs at most ceil(N/100) + 2 calls when the
 *   listing holds little besides them, besides what objects changed out of band need;
 * - a page is read only while the calls of the kind stay within its reads, so N reads never cost
 *   more than N + 2 calls, however long the account's listing (a few objects among many: GETs);
 * - an object the listing did not show is read by its own GET, which says whether it is gone;
 * - where the listing is in order of creation and takes `since` (clusters, jobs, packages,
 *   connections, schedules, hooks, deliveries), and every object still looked for was made
 *   after the last item read, the next page starts at the oldest object read since that item
 *   (answered or still looked for), once the reads on their way have come: a long history before
 *   a stack's objects (ended clusters, finished jobs, another stack's packages) costs one page,
 *   not a GET per object, however few reads come together (`--parallel 1`: one). The engine
 *   reads a stack's objects about in the order they were made, not exactly: one read later but
 *   made in what the listing skipped starts it again from there (one page, which answers those
 *   made after it too); one made before the last item read and not listed is read by GET at once;
 * - an object written in this process (created, updated, deleted) is read fresh, by GET;
 * - a page that fails ends the listing for the kind: every read left goes back to its own GET,
 *   with the retries, pacing and cancellation of any request (the pages had them too).
 * What the pages held is kept while the kind's reads keep coming, each within SNAPSHOT_TTL_MS of
 * the one before: a deployment's reads come together, however long a refresh one at a time takes.
 */
import type { z } from "zod";
import type { ApiRequest, RequestFn } from "../../client/http";
import { nextLink, readPage, resolveTarget } from "../../client/pagination";

export interface KindListing {
  /**
   * The first page of every object of the kind, asking for 100 a page, oldest first where the
   * service takes a direction: the order a stack's objects were made in, and read in.
   */
  listing: ApiRequest;
  /** One item of the listing: the record a GET of the object returns. */
  item: z.ZodType;
  /**
   * For a listing in order of creation that takes `since`: when an item was made. Whether
   * `since` keeps the objects made or those updated at or after a time, every object made since
   * then is among them, in order: pages can start at the oldest object still looked for.
   */
  createdOf?: (item: unknown) => string;
}

/** What a read knows of its object: its id, and when it was made where the state says. */
export interface ReadObject {
  id: string;
  createdAt?: unknown;
}

/**
 * A listing in order of creation (oldest first) whose `since` keeps the objects updated at or
 * after a time, as the service's collections do: every object made since then is among them.
 */
export function creationOrdered(listing: Omit<KindListing, "createdOf">): KindListing {
  return { ...listing, createdOf: (item) => String((item as { created_at?: unknown }).created_at) };
}

const QUIET_MS = 50;
const BATCH_MIN = 2;
const SNAPSHOT_TTL_MS = 60_000;

interface KindState {
  lastReadAt: number;
  reads: number;
  calls: number;
  /** Reads waiting to learn whether they join a listing. */
  gathering?: Gathering;
  /** Reads looking in the listing, each of which may still need its own GET. */
  unanswered: number;
  /** When each object still looked for was made, where known (ms). */
  looking: Map<string, number>;
  /** When each object read in the snapshot was made, where known (ms), answered or not. */
  made: number[];
  /** Creation time of the last item read (ms): an object made before it and not listed is not in the listing. */
  listedUntil?: number;
  /** The objects made between these times (ms) are in no page read: the listing skipped them. */
  skipped?: { after: number; before: number };
  /** Whether the last page held an object looked for: if not, the listing may skip ahead. */
  lastPageHit: boolean;
  listing: boolean;
  records: Map<string, unknown>;
  /** The next page to read; undefined once the listing is read to its end or abandoned. */
  next?: ApiRequest;
  failed: boolean;
  paging?: Promise<void>;
  /** Written in this process since the listing began: never answered from it. */
  written: Set<string>;
}

/** The reads of one provider's operations, kind by kind (`createBatchedReads`). */
export interface BatchedReads {
  readonly states: Map<string, KindState>;
}

export function createBatchedReads(): BatchedReads {
  return { states: new Map() };
}

function stateOf({ states }: BatchedReads, kind: string, now: number): KindState {
  const known = states.get(kind);
  if (known !== undefined && now - known.lastReadAt < SNAPSHOT_TTL_MS) {
    known.lastReadAt = now;
    return known;
  }
  const fresh: KindState = {
    lastReadAt: now,
    reads: 0,
    calls: 0,
    unanswered: 0,
    looking: new Map(),
    made: [],
    lastPageHit: false,
    listing: false,
    records: new Map(),
    failed: false,
    written: new Set(),
  };
  states.set(kind, fresh);
  return fresh;
}

/** An object of `kind` was written in this process: its next read goes to the service. */
export function markWritten(reads: BatchedReads, kind: string, id: string): void {
  reads.states.get(kind)?.written.add(id);
}

interface Gathering {
  joined: Promise<boolean>;
  settle: (listing: boolean) => void;
  timer?: NodeJS.Timeout;
}

function openGathering(state: KindState): Gathering {
  let settle!: (listing: boolean) => void;
  const joined = new Promise<boolean>((resolve) => (settle = resolve));
  const gathering: Gathering = {
    joined,
    settle: (listing) => {
      clearTimeout(gathering.timer);
      if (state.gathering === gathering) state.gathering = undefined;
      settle(listing);
    },
  };
  return gathering;
}

/** Whether enough reads of the kind come, close enough together, to read its listing. */
function gathered(state: KindState): Promise<boolean> {
  if (state.reads >= BATCH_MIN) {
    state.gathering?.settle(true);
    return Promise.resolve(true);
  }
  const gathering = (state.gathering ??= openGathering(state));
  clearTimeout(gathering.timer);
  gathering.timer = setTimeout(() => gathering.settle(false), QUIET_MS);
  return gathering.joined;
}

async function readNextPage(request: RequestFn, state: KindState, kind: KindListing): Promise<void> {
  state.calls += 1;
  try {
    const { page, url } = await readPage(request, state.next!, kind.item, "objects");
    for (const record of page.items as Array<{ id: number }>) state.records.set(String(record.id), record);
    state.lastPageHit = (page.items as Array<{ id: number }>).some((record) => state.looking.has(String(record.id)));
    const last = page.items.at(-1);
    if (kind.createdOf !== undefined && last !== undefined) state.listedUntil = Date.parse(kind.createdOf(last));
    const next = nextLink(page.link);
    state.next = next === undefined ? undefined : { method: "GET", url: resolveTarget(next, url) };
  } catch {
    state.failed = true;
    state.next = undefined;
  }
}

/** The record from the listing, reading pages while the budget allows; undefined: GET it. */
async function fromListing(request: RequestFn, state: KindState, kind: KindListing, id: string, created: number): Promise<unknown> {
  state.unanswered += 1;
  if (!Number.isNaN(created)) state.looking.set(id, created);
  return lookUp(request, state, kind, id, created);
}

/** Looks until the read is answered or must GET, and stops counting as looking at once, so the next page's budget sees it. */
async function lookUp(request: RequestFn, state: KindState, kind: KindListing, id: string, created: number): Promise<unknown> {
  const answer = (record: unknown) => {
    state.unanswered -= 1;
    state.looking.delete(id);
    // Its GET is counted now, before another read weighs one page more against the budget.
    if (record === undefined) state.calls += 1;
    return record;
  };
  for (;;) {
    if (state.written.has(id)) return answer(undefined);
    const found = state.records.get(id);
    if (found !== undefined) return answer(found);
    if (state.paging !== undefined) {
      await state.paging;
      continue;
    }
    if (created < (state.listedUntil ?? Number.NEGATIVE_INFINITY)) {
      if (!inSkipped(state, created)) return answer(undefined);
      // Made in what the listing skipped: the listing from it answers it and those made after it.
      state.skipped = { after: state.skipped!.after, before: created };
      state.next = listingSince(kind, created);
    }
    // One page more must leave room for a GET of every read still looking, within reads + 2.
    if (state.failed || state.next === undefined || state.calls + 1 + state.unanswered > state.reads + 2) return answer(undefined);
    state.paging = nextPage(request, state, kind).finally(() => (state.paging = undefined));
  }
}

/**
 * The next page, or the listing from the stack's oldest object. Before skipping, the reads that
 * are on their way are let in (QUIET_MS without a new one): the engine sends a stack's reads
 * about in the order their objects were made, not exactly, so the oldest of a few reads is not
 * yet the stack's oldest, and an object made before the skip's start costs a GET of its own.
 */
async function nextPage(request: RequestFn, state: KindState, kind: KindListing): Promise<void> {
  if (state.listedUntil !== undefined && !state.lastPageHit) await readsSettled(state);
  const since = skippingAhead(state);
  if (since !== undefined) {
    state.skipped = { after: state.listedUntil!, before: since };
    state.next = listingSince(kind, since);
  }
  await readNextPage(request, state, kind);
}

async function readsSettled(state: KindState): Promise<void> {
  for (let wait = state.lastReadAt + QUIET_MS - Date.now(); wait > 0; wait = state.lastReadAt + QUIET_MS - Date.now()) {
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * The listing from the oldest object still looked for, when the last page held none of them and
 * every one was made after its last item; undefined: read on from the next page, which also
 * answers reads still to come of objects made in between. It starts earlier still, at the
 * oldest object the snapshot has read that was made after that item (answered already, by its
 * own GET or the listing): the engine reads a stack's objects in about the order they were made,
 * not exactly (two made side by side come either way round), so one of them read after the
 * skip is then in it, not a GET of its own.
 */
function skippingAhead(state: KindState): number | undefined {
  const until = state.listedUntil;
  if (until === undefined || state.lastPageHit || state.looking.size < state.unanswered) return undefined;
  const oldestLooked = Math.min(...state.looking.values());
  if (!(oldestLooked > until)) return undefined;
  return state.made.reduce((oldest, made) => (made > until && made < oldest ? made : oldest), oldestLooked);
}

function inSkipped({ skipped }: KindState, created: number): boolean {
  return skipped !== undefined && created > skipped.after && created < skipped.before;
}

function listingSince(kind: KindListing, since: number): ApiRequest {
  const query = (kind.listing as { query?: Record<string, unknown> }).query;
  return { ...kind.listing, query: { ...query, since: new Date(since).toISOString() } } as ApiRequest;
}

/**
 * The object's record: from the kind's listing when reads come together, else by `get`. `get`
 * is the single read's own call, and answers for whatever the listing cannot. `fromListed`
 * makes the record of a kind whose listing holds less than its GET (a package's flow) from the
 * listed item.
 */
export async function batchedRead<Rec>(
  reads: BatchedReads,
  request: RequestFn,
  kindName: string,
  kind: KindListing,
  read: ReadObject,
  get: () => Promise<Rec>,
  fromListed: (listed: unknown) => Promise<Rec> = async (listed) => listed as Rec,
): Promise<Rec> {
  const state = stateOf(reads, kindName, Date.now());
  state.reads += 1;
  const created = kind.createdOf === undefined ? Number.NaN : Date.parse(String(read.createdAt));
  if (!Number.isNaN(created)) state.made.push(created);
  if (!state.listing && !state.written.has(read.id) && (await gathered(state))) {
    state.listing = true;
    state.next ??= kind.listing;
  }
  if (!state.listing) {
    state.calls += 1;
    return get();
  }
  const record = await fromListing(request, state, kind, read.id, created);
  return record === undefined ? get() : fromListed(record);
}
