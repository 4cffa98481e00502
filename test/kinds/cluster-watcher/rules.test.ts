/** ClusterWatcher's check and diff: pure rules, no API call. */
import { describe, expect, it } from "vitest";
import { clusterWatcherImplementation } from "../../../provider/resources/cluster-watcher/implementation";
import type { ClusterWatcherInputs, ClusterWatcherOutputs } from "../../../provider/resources/cluster-watcher/fields";
import { expectedFailure } from "../check-failure";

const check = (news: Record<string, unknown>) => clusterWatcherImplementation.check({}, { __provider: "shim", ...news });

describe("ClusterWatcher check", () => {
  it("takes the cluster's id as a number or a numeric string", async () => {
    expect(await check({ clusterId: "201" })).toEqual({ ok: true, inputs: { clusterId: 201 } });
    expect(await check({ clusterId: 201 })).toEqual({ ok: true, inputs: { clusterId: 201 } });
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{}, "clusterId", "clusterId is required"],
    [{ clusterId: "prod" }, "clusterId", 'clusterId must be a positive integer, as a number or a string such as "201"'],
    [{ clusterId: 0 }, "clusterId", "clusterId must be a positive integer"],
    [{ clusterId: 2.5 }, "clusterId", "clusterId must be a positive integer"],
    [{ clusterId: 201, userId: 70 }, "userId", "userId is not an input of this resource"],
  ])("refuses %j, naming %s", async (given, path, rule) => {
    expect(await check(given)).toMatchObject({ ok: false, failures: [expectedFailure(given, path, rule)] });
  });
});

describe("ClusterWatcher diff", () => {
  const olds: ClusterWatcherOutputs = { clusterId: 201, userId: 70, displayName: "Test User" };
  const diff = (news: ClusterWatcherInputs) => clusterWatcherImplementation.diff("201", olds, news);

  it("is no change for the same cluster", async () => {
    expect((await diff({ clusterId: 201 })).changes).toBe(false);
  });

  it("replaces for another cluster, watching it before the old watch ends", async () => {
    const result = await diff({ clusterId: 202 });
    expect(result).toMatchObject({ changes: true, replaces: ["clusterId"], deleteBeforeReplace: false });
  });
});
