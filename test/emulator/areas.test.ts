/**
 * How the emulator's areas meet: an area reaches another only through that area's `interface.ts`
 * (or the list of areas), and what areas count and hear is declared on the area objects, so a
 * store counts and tells exactly the areas it was made with.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { AREAS, type Area } from "../../emulator/areas";
import { allAccounts } from "../../emulator/areas/accounts/interface";
import { accountCounters } from "../../emulator/areas/accounts/counters";
import { CLUSTER_STATUS_CHANGED, type ClusterStatusChange } from "../../emulator/areas/clusters/interface";
import type { Clock } from "../../emulator/clock";
import { defaultFixtures, storeFromFixtures } from "../../emulator/fixtures";
import { Store } from "../../emulator/store";
import { announce, defineTopic, hear } from "../../emulator/topics";

const EMULATOR = resolve(__dirname, "../../emulator");
const AREAS_DIR = join(EMULATOR, "areas");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

function relativeImports(file: string): string[] {
  const specifiers = [...readFileSync(file, "utf8").matchAll(/\bfrom\s+"(\.[^"]+)"/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => resolve(dirname(file), specifier));
}

const LIST = join(AREAS_DIR, "index.ts");

/** The area a path lies in, and the module inside it (an area's folder is its `index`); undefined outside the areas. */
function placeInArea(path: string): { area: string; inside: string } | undefined {
  const parts = relative(AREAS_DIR, path).split(sep);
  if (parts[0] === "" || parts[0] === ".." || !statSync(join(AREAS_DIR, parts[0]!), { throwIfNoEntry: false })?.isDirectory()) return undefined;
  return { area: parts[0]!, inside: parts.length === 1 ? "index" : parts.slice(1).join("/") };
}

/** An area's interface is for anyone; its index, for the list of areas alone. */
function mayImport(file: string, inside: string): boolean {
  return inside === "interface" || (inside === "index" && file === LIST);
}

/** Each import of an area's module from outside that area that is neither allowed. */
function crossingImports(): string[] {
  return sourceFiles(EMULATOR).flatMap((file) =>
    relativeImports(file).flatMap((target) => {
      const to = placeInArea(target);
      if (to === undefined || to.area === placeInArea(file)?.area || mayImport(file, to.inside)) return [];
      return [`${relative(EMULATOR, file)} -> areas/${to.area}/${to.inside}`];
    }),
  );
}

const fixedClock: Clock = { now: () => Date.parse("2026-01-01T00:00:00.000Z"), speed: 1, duration: (seconds) => seconds * 1000 };

describe("the emulator's areas", () => {
  it("reach one another only through an interface.ts", () => {
    expect(crossingImports()).toEqual([]);
  });

  it("count an account with the counters they declare, and no other", () => {
    const counted: Area = { name: "counted", routes: [], counters: { b_count: () => 2, a_count: (_store, accountId) => accountId } };
    const store = new Store(fixedClock, [counted, { name: "silent", routes: [] }]);
    const counters = accountCounters(store, 7);
    expect(counters).toEqual({ a_count: 7, b_count: 2 });
    expect(Object.keys(counters)).toEqual(["a_count", "b_count"]);
  });

  it("give the account's JSON the counters of every area of the service", () => {
    const store = storeFromFixtures(defaultFixtures(), fixedClock);
    const names = AREAS.flatMap((area) => Object.keys(area.counters ?? {})).sort();
    expect(names).toEqual(["connections_count", "deliveries_count", "hooks_count", "jobs_count", "packages_count", "running_jobs_count", "schedules_count"]);
    expect(Object.keys(accountCounters(store, allAccounts(store)[0]!.id))).toEqual(names);
  });

  it("hear status changes only from the store they were made with, one failure stopping no other", () => {
    const heard: string[] = [];
    const failing: Area = {
      name: "failing",
      routes: [],
      listeners: [
        hear(CLUSTER_STATUS_CHANGED, () => {
          throw new Error("listener broke");
        }),
      ],
    };
    const listening: Area = {
      name: "listening",
      routes: [],
      listeners: [
        hear(defineTopic<ClusterStatusChange>("cluster status"), () => void heard.push("another topic of the same name")),
        hear(CLUSTER_STATUS_CHANGED, (_store, change) => void heard.push(`${change.subject} ${change.row.status}`)),
      ],
    };
    const change = { subject: "cluster", row: { status: "idle" }, previous: "available", at: 0 } as unknown as ClusterStatusChange;
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      announce(new Store(fixedClock, [failing, listening]), CLUSTER_STATUS_CHANGED, change);
      announce(new Store(fixedClock, []), CLUSTER_STATUS_CHANGED, change);
      expect(stderr).toHaveBeenCalledWith(expect.stringContaining("a cluster status listener failed: Error: listener broke"));
    } finally {
      stderr.mockRestore();
    }
    expect(heard).toEqual(["cluster idle"]);
  });
});
