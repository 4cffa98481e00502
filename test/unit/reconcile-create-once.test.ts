/**
 * Creates whose outcome is unknown: the shared loop (adopt, send again, give up, a failed
 * lookup), with scripted answers. Each kind's rule for what its request may have made is in
 * reconcile-lookups.test.ts.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { BadRequestError, ConnectionError, type EtlApiError } from "../../provider/client/errors";
import { ResourceFailure } from "../../provider/resources/shared/failures";
import { MAX_ATTEMPTS } from "../../provider/resources/shared/reconcile";
import type { Reconciler } from "../../provider/resources/shared/reconciler";
import { answered500, dropped, reconcilerFor, request0, unusedRequest } from "../support/reconcile";

describe("createOnce", () => {
  const lines: string[] = [];
  const slept: number[] = [];
  // The lookups here never make a request of their own.
  const base = { kind: "widget", idOf: (r: { id: number }) => r.id, request: unusedRequest };
  let reconciler: Reconciler;
  const createOnce: Reconciler["createOnce"] = (options) => reconciler.createOnce(options);
  beforeEach(() => {
    lines.length = 0;
    slept.length = 0;
    reconciler = reconcilerFor(60_000, lines, slept);
  });

  it("returns and claims what the POST answers, without looking", async () => {
    let looked = false;
    const lookingUp = async () => {
      looked = true;
      return [];
    };
    const created = await createOnce({ ...base, send: async () => ({ id: 5 }), find: lookingUp });
    expect(created).toEqual({ record: { id: 5 }, adopted: false });
    expect(looked).toBe(false);
    expect(reconciler.isClaimed("widget", 5)).toBe(true);
  });

  it("adopts what a dropped POST made, with one line saying so", async () => {
    let sends = 0;
    const created = await createOnce({
      ...base,
      send: async () => {
        sends++;
        throw dropped();
      },
      find: async () => [{ id: 12 }],
    });
    expect(created).toEqual({ record: { id: 12 }, adopted: true });
    expect(sends).toBe(1);
    expect(lines).toEqual([expect.stringMatching(/^widget create: the connection dropped after sending .*; found widget 12 created by it, adopting it$/)]);
  });

  it("sends again only when nothing was made, and gives up after the last attempt", async () => {
    let sends = 0;
    const attempt = createOnce({
      ...base,
      send: async () => {
        sends++;
        throw answered500();
      },
      find: async () => [],
    });
    await expect(attempt).rejects.toThrow(ResourceFailure);
    await expect(attempt).rejects.toThrow(`sent ${MAX_ATTEMPTS} times and each time the outcome was unknown (last: the service answered 500`);
    expect(sends).toBe(MAX_ATTEMPTS);
    expect(lines.filter((l) => l.includes("sending it again"))).toHaveLength(MAX_ATTEMPTS - 1);
  });

  it("succeeds on a later attempt", async () => {
    let sends = 0;
    const created = await createOnce({
      ...base,
      send: async () => {
        if (++sends === 1) throw answered500();
        return { id: 8 };
      },
      find: async () => [],
    });
    expect(created).toEqual({ record: { id: 8 }, adopted: false });
  });

  it("passes other failures through without looking", async () => {
    const refused = new BadRequestError({ status: 400, request: request0, serviceMessage: "bad" });
    let looked = false;
    const lookingUp = async () => {
      looked = true;
      return [];
    };
    await expect(createOnce({ ...base, send: async () => Promise.reject(refused), find: lookingUp })).rejects.toBe(refused);
    expect(looked).toBe(false);
  });

  it("reports a failed lookup as an unknown outcome and does not send again", async () => {
    let sends = 0;
    reconciler = reconcilerFor(0, lines);
    const attempt = createOnce({
      ...base,
      send: async () => {
        sends++;
        throw dropped();
      },
      find: async () => Promise.reject(new ConnectionError({ status: 0, request: request0, serviceMessage: "ECONNRESET" }) as EtlApiError),
    });
    await expect(attempt).rejects.toThrow(
      /widget create: the connection dropped .* looking for the widget it may have created failed too .*ECONNRESET.*may or may not have been created/,
    );
    expect(sends).toBe(1);
  });

  it("tries a lookup again while the service cannot answer, then adopts what it finds", async () => {
    let lookups = 0;
    const created = await createOnce({
      ...base,
      send: async () => Promise.reject(dropped()),
      find: async () => {
        if (++lookups < 3) throw new ConnectionError({ status: 0, request: request0, serviceMessage: "could not reach it (ECONNREFUSED)" });
        return [{ id: 9 }];
      },
    });
    expect(created).toEqual({ record: { id: 9 }, adopted: true });
    expect(slept).toEqual([2_000, 4_000]);
    expect(lines.filter((l) => l.includes("trying again in"))).toHaveLength(2);
  });

  it("still looks for what a create made once the deployment is cancelled, for a little while only", async () => {
    const unreachable = () => new ConnectionError({ status: 0, request: request0, serviceMessage: "could not reach it (ECONNREFUSED)" });
    let lookups = 0;
    const cancellation = new AbortController();
    cancellation.abort(new Error("the deployment was cancelled"));
    reconciler = reconcilerFor(600_000, lines, slept, cancellation.signal);
    const found = await createOnce({
      ...base,
      send: async () => Promise.reject(dropped()),
      find: async () => {
        if (++lookups < 3) throw unreachable();
        return [{ id: 9 }];
      },
    });
    expect(found).toEqual({ record: { id: 9 }, adopted: true });
    slept.length = 0;
    const attempt = createOnce({ ...base, send: async () => Promise.reject(dropped()), find: async () => Promise.reject(unreachable()) });
    await expect(attempt).rejects.toThrow(/may or may not have been created/);
    // 2 + 4 + 8 s, and the next wait would pass the 20 s a cancelled deployment allows.
    expect(slept).toEqual([2_000, 4_000, 8_000]);
  });

  it("gives up on a lookup the service refuses (not a passing failure) at once", async () => {
    let lookups = 0;
    const attempt = createOnce({
      ...base,
      send: async () => Promise.reject(dropped()),
      find: async () => {
        lookups++;
        throw new BadRequestError({ status: 400, request: request0, serviceMessage: "bad" });
      },
    });
    await expect(attempt).rejects.toThrow(/may or may not have been created/);
    expect(lookups).toBe(1);
  });

  it("never adopts an id another create of this process holds", async () => {
    const both = [{ id: 21 }, { id: 22 }];
    const make = () => createOnce({ ...base, send: async () => Promise.reject(dropped()), find: async () => both });
    const [a, b] = await Promise.all([make(), make()]);
    expect([a.record.id, b.record.id].sort()).toEqual([21, 22]);
    const third = make();
    await expect(third).rejects.toThrow(`sent ${MAX_ATTEMPTS} times`);
  });

  it("waits for a concurrent create's answer before taking what it made", async () => {
    let answer!: (r: { id: number }) => void;
    const slow = createOnce({ ...base, send: () => new Promise<{ id: number }>((resolve) => (answer = resolve)), find: async () => [] });
    const dropping = createOnce({
      ...base,
      send: async () => {
        // The slow create's object is already listed; its answer comes later.
        setTimeout(() => answer({ id: 30 }), 20);
        throw dropped();
      },
      find: async () => [{ id: 31 }, { id: 30 }].filter((r) => r.id === 30 || r.id === 31),
    });
    const [s, d] = await Promise.all([slow, dropping]);
    expect(s.record.id).toBe(30);
    expect(d.record.id).toBe(31);
  });
});
