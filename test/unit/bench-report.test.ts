/** The benchmark's verdicts: a refresh is held to ceil(N/100) + 2 calls, the other operations to calls per resource. */
import { describe, expect, it } from "vitest";
import type { LifecycleResult, OperationResult } from "../../bench/limits/measure.mts";
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
