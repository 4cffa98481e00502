/** Clusters' lifecycles on the emulator, seen by polling: created, idle, scaled, terminated. */
import { describe, expect, it } from "vitest";
import { call, readJson } from "../helpers";
import { CLUSTER_PATH, expectSubsequence, finished, useLifecycleService } from "./helpers";

const service = useLifecycleService();
const { post, watch } = service;

describe("cluster lifecycle", () => {
  it("goes pending → creating → available", async () => {
    const created = await post("/clusters", { nodes: 1 });
    expect(created.status).toBe("pending");
    const { statuses, last } = await watch(`/clusters/${created.id}`, (c) => c.status === "available");
    expectSubsequence(statuses, CLUSTER_PATH);
    expect(last.status).toBe("available");
    expect(last.available_since >= created.created_at).toBe(true);
  });

  it("goes idle without jobs and terminates itself when asked to", async () => {
    const created = await post("/clusters", { nodes: 1, terminate_on_idle: true, time_to_idle: 300 });
    const { statuses, samples, last } = await watch(`/clusters/${created.id}`, (c) => c.status === "terminated");
    expectSubsequence(statuses, CLUSTER_PATH);
    expect(last.status).toBe("terminated");
    expect(last.terminated_at).not.toBeNull();
    const idle = samples.find((c) => c.status === "idle");
    if (idle !== undefined) expect(idle.idle_since).not.toBeNull();
  });

  it("scales after a change of nodes and is available again", async () => {
    const response = await call(service.emulator, "/clusters/14", { method: "PUT", body: { nodes: 3 } });
    expect((await readJson(response)).status).toBe("scaling");
    const { statuses, last } = await watch("/clusters/14", (c) => c.status === "available");
    expectSubsequence(statuses, ["scaling", "available"]);
    expect(last.nodes).toBe(3);
  });
});

describe("terminating a cluster", () => {
  it("stops its running job, ends terminated and takes no more jobs", async () => {
    const job = await post("/jobs", { cluster_id: 13, package_id: 103 });
    await watch(`/jobs/${job.id}`, (j) => j.status === "running");
    const response = await call(service.emulator, "/clusters/13", { method: "DELETE" });
    expect(response.status).toBe(200);
    expect((await readJson(response)).status).toBe("pending_terminate");

    const cluster = await watch("/clusters/13", (c) => c.status === "terminated");
    expectSubsequence(cluster.statuses, CLUSTER_PATH);
    expect(cluster.last.terminated_at).not.toBeNull();
    const stopped = await watch(`/jobs/${job.id}`, finished);
    expect(stopped.last.status).toBe("stopped");

    const refused = await call(service.emulator, "/jobs", { method: "POST", body: { cluster_id: 13, package_id: 101 } });
    expect(refused.status).toBe(422);
    expect((await readJson(refused)).message).toMatch(/cluster_id 13 names a cluster that is terminated/);
  });
});
