/** The benchmark's verdicts: a refresh is held to ceil(N/100) + 2 calls, the other operations to calls per resource; a kind's time to its own floor's. */
import { describe, expect, it } from "vitest";
import type { LifecycleResult, OperationResult } from "../../bench/limits/measure.mts";
import { roundOf } from "../../bench/limits/kinds.mts";
import { lifecycleTable, verdicts } from "../../bench/limits/report.mts";

const call = (method: string) => ({ method, path: "/user/keys", status: 200 });
const operation = (calls: number, method = "GET"): OperationResult => ({ seconds: 1, calls: Array.from({ length: calls }, () => call(method)) });

function result(kind: LifecycleResult["kind"], count: number, refreshCalls: number): LifecycleResult {
  return {
    kind,
    count,
    operations: { up: operation(count, "POST"), preview: operation(0), refresh: operation(refreshCalls), destroy: operation(count, "DELETE") },
    stateBytesPerResource: 1500,
    stateEntryBytes: 1400,
    previewChanges: 0,
    refreshChanges: 0,
  };
}

const refreshVerdict = (kind: LifecycleResult["kind"], count: number, calls: number) =>
  verdicts([result("Floor", count, 0), result(kind, count, calls)], []).find((verdict) => verdict.target.includes("refresh ≤"));

describe("the benchmark's refresh target", () => {
  it("allows ceil(N/100) + 2 calls for N objects", () => {
    expect(refreshVerdict("PublicKey", 1000, 12)).toMatchObject({ met: true, measured: "12 calls" });
    expect(refreshVerdict("PublicKey", 1000, 13)).toMatchObject({ met: false, measured: "13 calls" });
    expect(refreshVerdict("JobRun", 101, 4)).toMatchObject({ met: true });
    expect(refreshVerdict("Package", 100, 300)).toMatchObject({ met: false, measured: "300 calls" });
  });

  it("shows a refresh's calls per 100 objects in the table", () => {
    const row = lifecycleTable([result("Floor", 1000, 0), result("Member", 1000, 12)])
      .split("\n")
      .find((line) => line.startsWith("Member"))!;
    expect(row.split(/\s+/).slice(0, 6)).toEqual(["Member", "1000", "1.00", "0.00", "1.20", "1.00"]);
  });
});

describe("the settings' proof in the benchmark", () => {
  const proof = { method: "GET", path: "/accounts/bench", status: 200 };
  const withProof = (op: OperationResult): OperationResult => ({ ...op, calls: [proof, ...op.calls] });
  const proven = (base: LifecycleResult, proofs = 1): LifecycleResult => ({
    ...base,
    operations: Object.fromEntries(
      Object.entries(base.operations).map(([op, value]) => [op, Array.from({ length: proofs }).reduce<OperationResult>(withProof, value)]),
    ) as LifecycleResult["operations"],
  });

  it("is counted apart: not a wait, not a call of the resources, not a read of the refresh's bound", () => {
    const member = proven(result("Member", 1000, 12));
    const row = lifecycleTable([result("Floor", 1000, 0), member])
      .split("\n")
      .find((line) => line.startsWith("Member"))!;
    expect(row.split(/\s+/).slice(0, 10)).toEqual(["Member", "1000", "1.00", "0.00", "1.20", "1.00", "1", "1", "1", "1"]);
    const list = verdicts([result("Floor", 1000, 0), member], []);
    expect(list.find((verdict) => verdict.target.includes("refresh ≤"))).toMatchObject({ met: true, measured: "12 calls" });
    expect(list.find((verdict) => verdict.target.includes("besides waits"))).toMatchObject({ met: true, measured: "1.00, 0.00, 1.00" });
  });

  it("is one call per operation, whatever N", () => {
    const target = (base: LifecycleResult) => verdicts([result("Floor", 100, 0), base], []).find((verdict) => verdict.target.includes("settings proven"));
    expect(target(proven(result("Hook", 100, 2)))).toMatchObject({ met: true, measured: "1, 1, 1, 1" });
    expect(target(proven(result("Hook", 100, 2), 2))).toMatchObject({ met: false, measured: "2, 2, 2, 2" });
    expect(target(result("Hook", 100, 2))).toMatchObject({ met: false, measured: "0, 0, 0, 0" });
  });
});

describe("the benchmark's two surfaces", () => {
  const timed = (kind: LifecycleResult["kind"], seconds: number): LifecycleResult => {
    const base = result(kind, 100, 3);
    const operations = Object.fromEntries(Object.entries(base.operations).map(([op, value]) => [op, { ...value, seconds }]));
    return { ...base, operations: operations as LifecycleResult["operations"] };
  };
  const results = [timed("Floor", 10), timed("PublicKey", 11), timed("Floor@plugin", 8), timed("PublicKey@plugin", 12)];

  it("leads with the plugin, its floor first, and gives a plugin kind's time against both floors", () => {
    const rows = lifecycleTable(results).split("\n").slice(2);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(["Floor@plugin", "PublicKey@plugin", "Floor", "PublicKey"]);
    expect(rows[1]).toContain("12.0 (1.50, 1.20 dyn)");
    expect(rows[3]).toContain("11.0 (1.10)");
  });

  it("keeps the columns aligned when a kind's name is longer than the others", () => {
    const lines = lifecycleTable([...results, timed("ConnectionGroup@plugin", 9)]).split("\n");
    // N is right-aligned: where it ends is the column.
    const columnOfN = (line: string) => {
      const found = /\s(N|100)\s/.exec(line)!;
      return found.index + found[0].length;
    };
    expect(new Set(lines.filter((line) => !line.startsWith("-")).map(columnOfN)).size).toBe(1);
  });

  it("holds each kind to its own surface's floor", () => {
    const timeVerdicts = verdicts(results, []).filter((verdict) => verdict.target.includes("up time"));
    expect(timeVerdicts).toEqual([
      { target: "PublicKey@plugin N=100: up time ≤ 1.15 x the plugin floor", met: false, measured: "1.50 x" },
      { target: "PublicKey N=100: up time ≤ 1.15 x the dynamic floor", met: true, measured: "1.10 x" },
    ]);
  });
});

describe("a kind's own floor in the benchmark", () => {
  const timed = (kind: LifecycleResult["kind"], count: number, seconds: number): LifecycleResult => {
    const base = result(kind, count, 3);
    const operations = Object.fromEntries(Object.entries(base.operations).map(([op, value]) => [op, { ...value, seconds }]));
    return { ...base, operations: operations as LifecycleResult["operations"] };
  };

  it("runs after its kind, on the kind's surface, the surfaces' floors first", () => {
    expect(roundOf(["PublicKey@plugin", "PublicKey"])).toEqual([
      "Floor@plugin",
      "Floor",
      "PublicKey@plugin",
      "Floor.PublicKey@plugin",
      "PublicKey",
      "Floor.PublicKey",
    ]);
  });

  it("gives a kind's time against its own floor first, and lists the floor right after the kind", () => {
    const results = [timed("Floor@plugin", 300, 8), timed("Schedule@plugin", 300, 12), timed("Floor.Schedule@plugin", 300, 10), timed("Floor", 300, 10)];
    const rows = lifecycleTable(results).split("\n").slice(2);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(["Floor@plugin", "Schedule@plugin", "Floor.Schedule@plugin", "Floor"]);
    expect(rows[1]).toContain("12.0 (1.20 props, 1.50, 1.20 dyn)");
    expect(rows[2]).toMatch(/^Floor\.Schedule@plugin\s+300\s+-\s+-\s+-\s+-\s+-\s+10\.0\s/);
  });

  it("holds each kind at N = 300 and 1,000 within 1.15 x its own floor, in every operation that waits on no object", () => {
    const own = (count: number, seconds: number) =>
      verdicts([timed("Floor", count, 5), timed("Hook", count, seconds), timed("Floor.Hook", count, 10)], []).filter((verdict) =>
        verdict.target.includes("own floor"),
      );
    expect(own(300, 11.5).map(({ target, met }) => [target, met])).toEqual(
      ["up", "preview", "refresh", "destroy"].map((op) => [`Hook N=300: ${op} time ≤ 1.15 x its own floor`, true]),
    );
    expect(own(1000, 11.6).every((verdict) => !verdict.met && verdict.measured === "1.16 x")).toBe(true);
    expect(own(100, 20)).toEqual([]);
    // A cluster's up and destroy wait for the service: only its preview and refresh are held.
    const cluster = timed("Cluster", 300, 30);
    cluster.operations.up = { ...cluster.operations.up, calls: [...cluster.operations.up.calls, ...Array.from({ length: 300 }, () => call("GET"))] };
    cluster.operations.destroy = {
      ...cluster.operations.destroy,
      calls: [...cluster.operations.destroy.calls, ...Array.from({ length: 300 }, () => call("GET"))],
    };
    const held = verdicts([cluster, timed("Floor.Cluster", 300, 10)], []).filter((verdict) => verdict.target.includes("own floor"));
    expect(held.map((verdict) => verdict.target)).toEqual([
      "Cluster N=300: preview time ≤ 1.15 x its own floor",
      "Cluster N=300: refresh time ≤ 1.15 x its own floor",
    ]);
  });
});
