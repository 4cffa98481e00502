/**
 * A user watching a cluster, on the plugin, through one stack's life: up watches it as the
 * API key's user, an unchanged preview asks nothing to change, a watch stopped out of band is
 * dropped by refresh and made again by up, another cluster replaces the watch (the new one made
 * before the old one ends, so a cluster that does not exist keeps the old watch), a second
 * watcher of the cluster is refused at preview, `up --replace` leaves the watch in place with
 * the `deleteBeforeReplace` option or without it, destroy stops it and leaves other users'
 * watches alone. A cluster id that is not one is refused at preview with every kind's first bad
 * input (test/engine/bad-input-*.test.ts), its message in rules.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestStack, failureOf, type TestStack } from "../../support/engine";
import { startTestEmulator, type Emulator } from "../../support/service";
import { declare, typeOf, type Surface } from "../../support/surfaces";

const OTHER_USER = { id: 71, name: "Ops Other", email: "ops@example.com", apiKey: `ops-key-${process.pid}` };
const CLUSTERS = [
  { id: 201, name: "made by the stack's user", nodes: 2 },
  { id: 202, name: "made by another user", nodes: 2, ownerId: OTHER_USER.id },
];

// One surface, the plugin; what each surface adds is proven for every kind on both in test/engine (docs/development.md).
const surface: Surface = "plugin";

describe("a cluster watcher on the plugin", { timeout: 300_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let watched: unknown = 202;
  let second: unknown;
  let options: { deleteBeforeReplace: boolean } | undefined;

  const watchersOf = async (clusterId: number): Promise<number[]> => {
    const clusters = (await service.state()).accounts[0].clusters as Array<{ id: number; watchers?: Array<{ userId: number }> }>;
    return (clusters.find((cluster) => cluster.id === clusterId)?.watchers ?? []).map((watcher) => watcher.userId).sort();
  };
  const writes = async () => (await service.writeRequests()).map((r) => `${r.method} ${r.path.replace(`/${service.accountId}/api`, "")}`);
  const watchersInState = async () =>
    ((await test.stack.exportStack()).deployment.resources ?? []).filter((r: any) => r.type === typeOf(surface, "ClusterWatcher"));

  beforeAll(async () => {
    service = await startTestEmulator({ users: [OTHER_USER], account: { clusters: CLUSTERS } });
    test = await createTestStack(
      `cluster-watcher-${surface}`,
      async () => {
        const watcher = declare(surface, "ClusterWatcher", "on-call", { clusterId: watched }, options);
        if (second !== undefined) declare(surface, "ClusterWatcher", "second", { clusterId: second });
        return { userId: watcher.userId, displayName: watcher.displayName, id: watcher.id };
      },
      service,
      {},
      { plugin: true },
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("up watches the cluster as the API key's user, keeping the other watchers", async () => {
    expect(await watchersOf(202)).toEqual([71]);
    const result = await test.stack.up();
    expect(result.outputs.userId!.value).toBe(70);
    expect(result.outputs.displayName!.value).toBe("Test User");
    expect(result.outputs.id!.value).toBe("202");
    expect(await watchersOf(202)).toEqual([70, 71]);
  });

  it("an unchanged preview with refresh changes nothing, writes nothing, and reads the watcher with one call: its cluster's watchers", async () => {
    await service.resetRequests();
    const preview = await test.stack.preview({ refresh: true, expectNoChanges: true });
    expect(preview.changeSummary.same).toBeGreaterThan(0);
    expect(await service.calls()).toEqual(["GET /clusters/202/watchers"]);
  });

  it("a watch stopped out of band is dropped by refresh and made again by up, in one `up --refresh`", async () => {
    expect((await service.api("DELETE", "/clusters/202/watchers")).status).toBe(204);
    await service.resetRequests();
    const up = await test.stack.up({ refresh: true });
    // Had the refresh kept the watcher, the update would have found nothing to make.
    expect(up.summary.resourceChanges?.create).toBe(1);
    expect(await writes()).toEqual(["POST /clusters/202/watchers"]);
    expect(await watchersOf(202)).toEqual([70, 71]);
    expect(await watchersInState()).toHaveLength(1);
  });

  it("another cluster replaces the watch, watching it before the old one ends; a watch that exists is taken over with no write", async () => {
    watched = 201;
    await service.resetRequests();
    const result = await test.stack.up();
    expect(result.summary.resourceChanges?.replace).toBe(1);
    // Cluster 201's maker, the stack's user, watches it from the start: the new watcher takes that watch over.
    expect(await writes()).toEqual(["DELETE /clusters/202/watchers"]);
    const calls = await service.calls();
    expect(calls.indexOf("GET /clusters/201/watchers")).toBeLessThan(calls.indexOf("DELETE /clusters/202/watchers"));
    expect(await watchersOf(202)).toEqual([71]);
    expect(await watchersOf(201)).toEqual([70]);
  });

  it("a new cluster id that names no cluster fails up naming clusterId, keeping the old watch and its record", async () => {
    watched = 999;
    await service.resetRequests();
    const message = await failureOf(test.stack.up());
    expect(message).toContain("clusterId 999: no cluster with this id in account");
    expect(await writes()).toEqual([]);
    expect(await watchersOf(201)).toEqual([70]);
    expect((await watchersInState()).map((r: any) => r.id)).toEqual(["201"]);
    watched = 201;
    // With refresh, a preview that proposes nothing also shows the refresh kept the watcher.
    await test.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("a second watcher of the same cluster is refused at preview, naming both, with nothing written", async () => {
    second = 201;
    await service.resetRequests();
    const message = await failureOf(test.stack.preview());
    second = undefined;
    // The engine checks the two at once: either may be the one refused, so the test asserts what holds
    // for both, that the message names each and the rule.
    expect(message).toContain("both have clusterId 201");
    expect(message).toContain('ClusterWatcher "second"');
    expect(message).toContain('ClusterWatcher "on-call"');
    expect(await writes()).toEqual([]);
    expect(await watchersOf(201)).toEqual([70]);
  });

  // The replacement takes its options from the program: no up is needed to record them first.
  it.each([
    ["without the deleteBeforeReplace option, takes the watch over and leaves it in place", undefined, []],
    [
      "with deleteBeforeReplace, ends the watch and starts it again",
      { deleteBeforeReplace: true },
      ["DELETE /clusters/201/watchers", "POST /clusters/201/watchers"],
    ],
  ])("up --replace %s", async (_title, given, sent) => {
    options = given;
    onTestFinished(() => {
      options = undefined;
    });
    const [urn] = (await watchersInState()).map((r: any) => r.urn as string);
    await service.resetRequests();
    const up = await test.stack.up({ replace: [urn!] });
    expect(up.summary.resourceChanges?.replace).toBe(1);
    expect(await writes()).toEqual(sent);
    expect(await watchersOf(201)).toEqual([70]);
    expect((await watchersInState()).map((r: any) => r.id)).toEqual(["201"]);
    await test.stack.preview({ expectNoChanges: true });
  });

  it("destroy under another user's API key stops, naming both users, and ends nobody's watch", async () => {
    await test.stack.setConfig("etl:apiKey", { value: OTHER_USER.apiKey, secret: true });
    // Destroy works with the settings the last up recorded: an up under the new key records them.
    await service.resetRequests();
    await test.stack.up();
    expect(await service.writeRequests()).toEqual([]);
    const message = await failureOf(test.stack.destroy());
    expect(message).toContain("cluster watcher of cluster 201 is user 70's, but the provider's API key (etl:apiKey) is now user 71's (ops@example.com)");
    expect(message).not.toContain(OTHER_USER.apiKey);
    expect(await watchersOf(201)).toEqual([70]);
    expect(await watchersInState()).toHaveLength(1);
    await test.stack.setConfig("etl:apiKey", { value: service.apiKey, secret: true });
    await test.stack.up();
  });

  it("destroy stops the watch and leaves the other user's", async () => {
    await test.stack.destroy();
    expect(await watchersOf(201)).toEqual([]);
    expect(await watchersOf(202)).toEqual([71]);
  });
});
