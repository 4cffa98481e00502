/** Cluster's check and diff: pure rules, no API call (the request function is never set up). */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { clusterImplementation } from "../../../provider/resources/cluster/implementation";
import type { ClusterInputs, ClusterOutputs } from "../../../provider/resources/cluster/fields";
import { expectedFailure, namedInputs } from "../check-failure";

const UNKNOWN = pulumi.runtime.unknownValue;

const check = (news: Record<string, unknown>) => clusterImplementation.check({}, { __provider: "shim", ...news });

describe("Cluster check", () => {
  it("keeps what was given, omitted inputs stay omitted, and the engine's own properties stay out", async () => {
    expect(await check({ nodes: 2 })).toEqual({ ok: true, inputs: { nodes: 2 } });
    const all = {
      nodes: 3,
      type: "production",
      name: " nightly ",
      description: "",
      terminateOnIdle: true,
      timeToIdle: 300,
      region: "eu-west-1",
      timeoutSeconds: 60,
      importId: "12",
    };
    expect(await check(all)).toEqual({ ok: true, inputs: { ...all, name: "nightly" } });
  });

  it("accepts a sandbox of one node and an importId given as a number", async () => {
    expect(await check({ nodes: 1, type: "sandbox", importId: 201 })).toEqual({
      ok: true,
      inputs: { nodes: 1, type: "sandbox", importId: "201" },
    });
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{}, "nodes", "nodes is required"],
    [{ nodes: "2" }, "nodes", "nodes must be a number, got a string"],
    [{ nodes: 0 }, "nodes", "nodes must be at least 1"],
    [{ nodes: 101 }, "nodes", "nodes must be at most 100"],
    [{ nodes: 1.5 }, "nodes", "nodes must be an integer"],
    [{ nodes: 2, type: "sandbox" }, "nodes", "nodes must be 1 for a sandbox cluster, got 2"],
    [{ nodes: 1, type: "large" }, "type", 'type must be one of "production", "sandbox"'],
    [{ nodes: 1, name: "" }, "name", "name must have at least 1 character(s)"],
    [{ nodes: 1, name: "   " }, "name", "name must have at least 1 character(s)"],
    [{ nodes: 1, name: "x".repeat(256) }, "name", "name must have at most 255 characters"],
    [{ nodes: 1, name: "a\u0007b" }, "name", "name must not contain control characters"],
    [{ nodes: 1, description: 7 }, "description", "description must be a string, got a number"],
    [{ nodes: 1, terminateOnIdle: "yes" }, "terminateOnIdle", "terminateOnIdle must be a boolean, got a string"],
    [{ nodes: 1, timeToIdle: 299 }, "timeToIdle", "timeToIdle must be at least 300"],
    [{ nodes: 1, timeToIdle: 86_401 }, "timeToIdle", "timeToIdle must be at most 86400"],
    [{ nodes: 1, region: "" }, "region", "region must have at least 1 character(s)"],
    [{ nodes: 1, timeoutSeconds: 0 }, "timeoutSeconds", "timeoutSeconds must be at least 1"],
    [{ nodes: 1, timeoutSeconds: 86_401 }, "timeoutSeconds", "timeoutSeconds must be at most 86400"],
    [{ nodes: 1, timeoutSeconds: 2.5 }, "timeoutSeconds", "timeoutSeconds must be an integer"],
    [{ nodes: 1, importId: "abc" }, "importId", "importId must be the id of an existing object"],
    [
      { nodes: 1, importId: true },
      "importId",
      'importId must be the id of an existing object, a positive integer such as "42" (a string or a number), got a boolean',
    ],
    [{ nodes: 1, size: 3 }, "size", "size is not an input of this resource"],
  ])("fails %j on %s", async (inputs, property, reason) => {
    const result = await check(inputs);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.failures).toContainEqual(expectedFailure(inputs, property, reason));
  });

  it("reports every problem at once", async () => {
    const result = await check({ nodes: 0, timeToIdle: 1, name: "" });
    expect(!result.ok && namedInputs(result.failures).sort()).toEqual(["name", "nodes", "timeToIdle"]);
  });

  it("leaves values unknown during a preview to the update", async () => {
    for (const inputs of [
      { nodes: UNKNOWN },
      { nodes: UNKNOWN, type: "sandbox" },
      { nodes: 2, type: UNKNOWN },
      { nodes: 1, name: UNKNOWN, description: UNKNOWN, timeToIdle: UNKNOWN, region: UNKNOWN, importId: UNKNOWN },
    ]) {
      expect(await check(inputs), JSON.stringify(inputs)).toMatchObject({ ok: true });
    }
  });
});

describe("Cluster diff", () => {
  const olds: ClusterOutputs = {
    status: "available",
    type: "production",
    nodes: 2,
    region: "us-east-1",
    name: "cluster-12",
    description: "",
    terminateOnIdle: false,
    timeToIdle: 3600,
    createdAt: "2026-11-21T00:00:00Z",
    updatedAt: "2026-11-21T00:00:21Z",
    availableSince: "2026-11-21T00:00:21Z",
    idleSince: null,
    terminatedAt: null,
    runningJobsCount: 0,
    queuedJobsCount: 0,
    ownerId: 70,
    htmlUrl: "http://127.0.0.1/acme/clusters/12",
    __inputsSet: ["nodes"],
  };
  const diff = (news: ClusterInputs, from: ClusterOutputs = olds) => clusterImplementation.diff("12", from, news);

  it("sees no change when omitted inputs are at their defaults and name and region are left to the service", async () => {
    expect(await diff({ nodes: 2 })).toMatchObject({ changes: false, replaces: [], deleteBeforeReplace: false });
    const explicit = { nodes: 2, type: "production", description: "", terminateOnIdle: false, timeToIdle: 3600, timeoutSeconds: 1800 } as const;
    expect(await diff(explicit)).toMatchObject({ changes: false });
  });

  it("ignores what changes on its own: status, job counts, timestamps", async () => {
    const later = { ...olds, status: "idle", idleSince: "2026-11-21T00:01:21Z", runningJobsCount: 1, queuedJobsCount: 3, updatedAt: "2026-11-21T00:05:00Z" };
    expect(await diff({ nodes: 2 }, later)).toMatchObject({ changes: false });
  });

  it.each<[string, ClusterInputs]>([
    ["nodes", { nodes: 3 }],
    ["name", { nodes: 2, name: "nightly" }],
    ["description", { nodes: 2, description: "nightly loads" }],
    ["terminateOnIdle", { nodes: 2, terminateOnIdle: true }],
    ["timeToIdle", { nodes: 2, timeToIdle: 900 }],
    ["timeoutSeconds", { nodes: 2, timeoutSeconds: 60 }],
  ])("updates %s in place", async (_field, news) => {
    expect(await diff(news)).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("never diffs importId: it only matters when the cluster is first taken over", async () => {
    expect(await diff({ nodes: 2, importId: "12" })).toMatchObject({ changes: false });
    expect(await diff({ nodes: 2 }, { ...olds, importId: "12" })).toMatchObject({ changes: false });
  });

  it("brings a description set elsewhere back to none when the program has none", async () => {
    expect(await diff({ nodes: 2 }, { ...olds, description: "set by hand" })).toMatchObject({ changes: true, replaces: [] });
  });

  it.each<[string, ClusterInputs]>([
    ["type", { nodes: 1, type: "sandbox" }],
    ["region", { nodes: 2, region: "eu-west-1" }],
  ])("replaces on a new %s, creating the new cluster first", async (field, news) => {
    const result = await diff(news);
    expect(result).toMatchObject({ changes: true, deleteBeforeReplace: false });
    expect(result.replaces).toContain(field);
  });

  it("reports a change when an input is not known yet", async () => {
    expect(await diff({ nodes: UNKNOWN as unknown as number })).toMatchObject({ changes: true, replaces: [] });
    expect(await diff({ nodes: 2, type: UNKNOWN as unknown as "sandbox" })).toMatchObject({ changes: true, replaces: ["type"] });
  });
});
