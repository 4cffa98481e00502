/**
 * Cluster through the real engine against the emulator, lifecycles sped up: up (waiting
 * until ready), unchanged preview and refresh, in-place update and replacement, drift, a cluster
 * terminated out of band, adoption, destroy; and a creation that outlasts its timeout. A sandbox
 * of two nodes is a check's refusal: its rule is in rules.test.ts and among the kind's bad inputs
 * (entry.ts), which go through both surfaces' check, and a check's refusal failing the preview
 * before any call, for every kind, is in test/engine/bad-input-*.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cluster, type ClusterArgs } from "pulumi-etl";
import { createTestStack, type TestStack, failureOf } from "../../support/engine";
import { startTestEmulator, type Emulator } from "../../support/service";
import { READY_CLUSTER_STATUSES } from "../../../contract/vocabularies";

const TYPE = "pulumi-nodejs:dynamic/etl:Cluster";

/** Able to run jobs; at this speed an unused cluster goes idle about a second after it is available. */
const READY = expect.stringMatching(/^(available|idle)$/);

interface ServiceCluster {
  id: number;
  name: string;
  description: string;
  status: string;
  type: string;
  nodes: number;
}

function helpers(service: Emulator, test: () => TestStack) {
  const clusters = async () => (await service.state()).accounts[0].clusters as ServiceCluster[];
  return {
    clusters,
    cluster: async (id: string | number) => (await clusters()).find((c) => c.id === Number(id)),
    /** API calls since the last reset that addressed clusters, as "METHOD /clusters...". */
    clusterCalls: async () =>
      (await service.requests()).map((r) => `${r.method} ${r.path.replace(/^.*\/api/, "")}`).filter((call) => call.includes("/clusters")),
    inState: async (name: string) =>
      ((await test().stack.exportStack()).deployment.resources ?? []).find((r: any) => r.type === TYPE && r.urn.endsWith(`::${name}`)),
  };
}

describe("Cluster on the real engine", { timeout: 300_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let main: ClusterArgs = { nodes: 1, description: "nightly loads" };
  let extras: Array<[string, ClusterArgs]> = [];
  const output: string[] = [];
  const onOutput = (text: string) => output.push(text);
  const calls: Record<string, string[]> = {};
  let h: ReturnType<typeof helpers>;

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 50 });
    test = await createTestStack(
      "cluster",
      async () => {
        const cluster = new Cluster("main", main);
        for (const [name, args] of extras) new Cluster(name, args);
        return { id: cluster.id, status: cluster.status, nodes: cluster.nodes, name: cluster.name, type: cluster.type, htmlUrl: cluster.htmlUrl };
      },
      service,
    );
    h = helpers(service, () => test);
  });

  afterAll(async () => {
    console.log(`API calls per operation: ${JSON.stringify(calls, null, 1)}`);
    test?.dispose();
    await service?.emulator.close();
  });

  let firstId: string;

  it("up creates the cluster and waits until it can run jobs", async () => {
    await service.resetRequests();
    const up = await test.stack.up({ onOutput });
    calls.create = await h.clusterCalls();
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    firstId = up.outputs.id.value;
    expect(READY_CLUSTER_STATUSES).toContain(up.outputs.status.value);
    expect(up.outputs.name.value).toBe(`cluster-${firstId}`);
    expect(up.outputs.type.value).toBe("production");
    expect(up.outputs.htmlUrl.value).toContain(`/clusters/${firstId}`);
    expect(await h.clusters()).toEqual([expect.objectContaining({ id: Number(firstId), nodes: 1, description: "nightly loads" })]);
    expect(calls.create[0]).toBe("POST /clusters");
    expect(calls.create.slice(1).every((call) => call === `GET /clusters/${firstId}`)).toBe(true);
    expect(output.join("")).toContain(`cluster ${firstId} pending`);
  });

  it("an unchanged preview proposes nothing and makes no API call at all", async () => {
    await service.resetRequests();
    const preview = await test.stack.preview({ expectNoChanges: true, onOutput });
    calls.unchangedPreview = await h.clusterCalls();
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(await service.calls()).toEqual([]);
  });

  it("refresh finds no change, though the cluster has gone idle meanwhile", async () => {
    await expect.poll(async () => (await h.cluster(firstId))?.status, { timeout: 10_000, interval: 200 }).toBe("idle");
    await service.resetRequests();
    const refresh = await test.stack.refresh({ expectNoChanges: true, onOutput });
    calls.refresh = await h.clusterCalls();
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
    expect((await h.inState("main")).outputs.status).toBe("idle");
    expect(await service.writeRequests()).toEqual([]);
  });

  it("new nodes and description update the same cluster in place, waiting for the scaling", async () => {
    main = { nodes: 2, description: "nightly and hourly loads" };
    await service.resetRequests();
    const preview = await test.stack.preview({ onOutput });
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(await service.writeRequests()).toEqual([]);

    await service.resetRequests();
    const up = await test.stack.up({ onOutput });
    calls.updateNodesAndDescription = await h.clusterCalls();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(up.outputs.id.value).toBe(firstId);
    expect((await service.writeRequests()).map((r) => `${r.method} ${r.path.replace(/^.*\/api/, "")}`)).toEqual([`PUT /clusters/${firstId}`]);
    expect(await h.cluster(firstId)).toMatchObject({ nodes: 2, description: "nightly and hourly loads", status: READY });
    expect(output.join("")).toContain(`cluster ${firstId} scaling`);
  });

  let secondId: string;

  it("a new type replaces the cluster: a new one is created and the old one terminated", async () => {
    main = { nodes: 1, type: "sandbox", description: "nightly and hourly loads" };
    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    secondId = up.outputs.id.value;
    expect(secondId).not.toBe(firstId);
    expect(await h.cluster(secondId)).toMatchObject({ type: "sandbox", nodes: 1, status: READY });
    expect((await h.cluster(firstId))?.status).toBe("terminated");
  });

  it("a description changed out of band is found by refresh and put back by up", async () => {
    const edited = await service.api("PUT", `/clusters/${secondId}`, { description: "changed by hand" });
    expect(edited.status).toBe(200);

    await service.resetRequests();
    const refresh = await test.stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(await service.writeRequests()).toEqual([]);
    const refreshed = await h.inState("main");
    expect(refreshed.outputs.description).toBe("changed by hand");
    // Inputs rebuilt from the service for what the program sets, so the next preview shows the true change.
    expect(refreshed.inputs).toMatchObject({ nodes: 1, type: "sandbox", description: "changed by hand" });
    expect(refreshed.inputs).not.toHaveProperty("name");

    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await h.cluster(secondId))?.description).toBe("nightly and hourly loads");
    await test.stack.preview({ expectNoChanges: true });
  });

  it("a cluster terminated out of band is dropped by refresh and created again by up, in one `up --refresh`", async () => {
    expect((await service.api("DELETE", `/clusters/${secondId}`)).status).toBe(200);

    const up = await test.stack.up({ onOutput, refresh: true });
    // Had the refresh kept the cluster in the state, the update would have found nothing to do.
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(up.summary.resourceChanges).not.toHaveProperty("replace");
    expect(up.outputs.id.value).not.toBe(secondId);
    expect(await h.cluster(up.outputs.id.value)).toMatchObject({ type: "sandbox", status: READY });
  });

  let adoptedId: number;

  it("importId adopts an existing cluster, updates what differs, and the next preview is empty", async () => {
    const made = await service.api("POST", "/clusters", { nodes: 1, name: "made-by-hand" });
    expect(made.status).toBe(201);
    adoptedId = made.body.id;
    extras = [["adopted", { nodes: 2, name: "made-by-hand", description: "now in Pulumi", importId: String(adoptedId) }]];

    await service.resetRequests();
    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect((await h.inState("adopted")).id).toBe(String(adoptedId));
    expect((await service.writeRequests()).map((r) => `${r.method} ${r.path.replace(/^.*\/api/, "")}`)).toEqual([`PUT /clusters/${adoptedId}`]);
    expect(await h.cluster(adoptedId)).toMatchObject({ nodes: 2, description: "now in Pulumi", status: READY });

    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.calls()).toEqual([]);
  });

  let refusedIds: number[] = [];

  it("adoption is refused for a cluster of another type and for a terminated cluster", async () => {
    const production = (await service.api("POST", "/clusters", { nodes: 1 })).body.id as number;
    const gone = (await service.api("POST", "/clusters", { nodes: 1 })).body.id as number;
    refusedIds = [production, gone];
    expect((await service.api("DELETE", `/clusters/${gone}`)).status).toBe(200);
    const adopted = extras[0]!;
    extras = [adopted, ["wrong-type", { nodes: 1, type: "sandbox", importId: production }], ["terminated", { nodes: 1, importId: String(gone) }]];

    await service.resetRequests();
    const failure = await failureOf(test.stack.up({ continueOnError: true }));
    expect(failure).toContain(`cannot adopt cluster ${production}: type is production, not sandbox, and cannot be changed`);
    expect(failure).toMatch(new RegExp(`cannot adopt cluster ${gone}: it is (pending_terminate|terminating|terminated)`));
    expect(await service.writeRequests()).toEqual([]);
    expect(await h.inState("wrong-type")).toBeUndefined();
    extras = [adopted];
  });

  it("destroy terminates every cluster of the stack and waits for it", async () => {
    await service.resetRequests();
    const destroy = await test.stack.destroy({ onOutput });
    calls.destroy = await h.clusterCalls();
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 3 });
    const left = (await h.clusters()).filter((c) => c.status !== "terminated").map((c) => c.id);
    expect(left).toEqual([refusedIds[0]]);
  });
});

describe("Cluster creation that outlasts its timeout", { timeout: 300_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let args: ClusterArgs = { nodes: 1, timeoutSeconds: 1 };
  const output: string[] = [];
  const onOutput = (text: string) => output.push(text);
  let h: ReturnType<typeof helpers>;

  beforeAll(async () => {
    // Creation takes about 10 s here: well past a 1 s timeout, short enough to wait for after.
    service = await startTestEmulator({ speed: 2 });
    test = await createTestStack(
      "cluster-timeout",
      async () => {
        const cluster = new Cluster("slow", args);
        return { id: cluster.id, status: cluster.status };
      },
      service,
    );
    h = helpers(service, () => test);
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  let id: string;

  it("up fails with a clear message and the stack keeps the cluster", async () => {
    const failure = await failureOf(test.stack.up({ onOutput }));
    const [cluster] = await h.clusters();
    id = String(cluster!.id);
    expect(failure).toMatch(new RegExp(`cluster ${id} is not ready after 1 s \\(it is (pending|creating)\\); it stays in the stack`));
    expect(failure).not.toMatch(/\n\s+at /);
    const kept = await h.inState("slow");
    expect(kept.id).toBe(id);
    expect(kept.outputs.status).toMatch(/^(pending|creating)$/);
    // Kept with its provider, so a destroy at this point could still terminate it.
    expect(kept.outputs.__provider).toContain("pulumi-etl/runtime");
  });

  it("a preview with the same inputs proposes to update it, to wait for it again", async () => {
    await service.resetRequests();
    const preview = await test.stack.preview({ onOutput });
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(await service.requests()).toEqual([]);
  });

  it("the next up with a longer timeout waits for the same cluster instead of creating another", async () => {
    args = { nodes: 1, timeoutSeconds: 120 };
    // The service's clock, 2.5 times faster from here, makes the cluster available at once (it began
    // long enough ago) and keeps it so for 12 s, and makes destroy's wait for the termination short.
    await service.setSpeed(5);
    await service.resetRequests();
    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(up.outputs.id.value).toBe(id);
    expect(up.outputs.status.value).toBe("available");
    expect(await service.writeRequests()).toEqual([]);
    expect(await h.clusters()).toEqual([expect.objectContaining({ id: Number(id), status: READY })]);
    await test.stack.preview({ expectNoChanges: true });
  });

  it("destroy terminates it", async () => {
    await test.stack.destroy({ onOutput });
    expect((await h.cluster(id))?.status).toBe("terminated");
  });
});
