/**
 * Cluster's fields. `nodes`, `name`, `description`, `terminateOnIdle` and `timeToIdle` update
 * in place; `type` and `region` are fixed at creation, so changing them replaces the cluster.
 * Omitted `name` and `region` are the service's choice and not managed. `status`, the job counts
 * and the timestamps move on their own (an unused cluster goes idle): they are outputs only and
 * never a reason to change anything. `timeoutSeconds` and `importId` are the provider's own:
 * changing them updates the stack without an API call.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ClusterRecord } from "../../api/clusters";
import { CLUSTER_NODES, CLUSTER_TIME_TO_IDLE_SECONDS, SANDBOX_CLUSTER_NODES } from "../../../contract/limits";
import { CLUSTER_STATUSES, CLUSTER_TYPES, type ClusterType } from "../../../contract/vocabularies";
import { importIdField } from "../shared/adopt";
import { isUnknown, labelText } from "../shared/check";
import { fieldOperations, takes, output, OUTPUT, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";

function integerBetween(min: number, max: number) {
  return z.number().refine(Number.isInteger, { message: "must be an integer", abort: true }).min(min).max(max);
}

const table = {
  /** Machines in the cluster, 1 to 100; a sandbox has exactly 1. Changing it rescales in place. */
  nodes: { input: integerBetween(CLUSTER_NODES.min, CLUSTER_NODES.max), required: true, api: "nodes", onChange: "update" },
  /** `production` (the default) or `sandbox`. Changing it replaces the cluster. */
  type: { program: takes<pulumi.Input<ClusterType>>(), input: z.enum(CLUSTER_TYPES), default: "production", api: "type", onChange: "replace" },
  /** 1 to 255 characters. Left out, the service names the cluster and Pulumi leaves the name alone. */
  name: { input: labelText(), unmanagedWhenOmitted: true, api: "name", onChange: "update" },
  /** Left out, the cluster has no description (one set elsewhere is removed). */
  description: { input: z.string(), default: "", api: "description", onChange: "update" },
  /** Terminate the cluster after `timeToIdle` seconds without jobs; default false. */
  terminateOnIdle: { input: z.boolean(), default: false, api: "terminate_on_idle", onChange: "update" },
  /** Seconds without jobs before an idle cluster terminates itself, 300 to 86400; default 3600. */
  timeToIdle: {
    input: integerBetween(CLUSTER_TIME_TO_IDLE_SECONDS.min, CLUSTER_TIME_TO_IDLE_SECONDS.max),
    default: CLUSTER_TIME_TO_IDLE_SECONDS.default,
    api: "time_to_idle",
    onChange: "update",
  },
  /** Left out, the service picks the region and Pulumi leaves it alone. Changing it replaces the cluster. */
  region: { input: labelText(), unmanagedWhenOmitted: true, api: "region", onChange: "replace" },
  /** How long `up` and `destroy` wait for the cluster to become ready or terminated; default 1800. */
  timeoutSeconds: { input: integerBetween(1, 86_400), default: 1800, onChange: "update" },
  /** The id of an existing cluster to manage instead of creating one. */
  importId: importIdField,
  status: output(`One of ${CLUSTER_STATUSES.join(", ")}; it moves on its own and never causes a change.`),
  createdAt: OUTPUT,
  updatedAt: OUTPUT,
  availableSince: output("When the cluster became able to run jobs."),
  idleSince: output("When the cluster last became idle."),
  terminatedAt: output("When the cluster was terminated."),
  runningJobsCount: output("Jobs running on the cluster now."),
  queuedJobsCount: output("Jobs waiting for the cluster now."),
  ownerId: OUTPUT,
  htmlUrl: OUTPUT,
} satisfies Record<string, Field<ClusterRecord>>;

/** What a program passes. */
export type ClusterArgs = ArgsOf<typeof table>;

export const tableOperations = fieldOperations<ClusterRecord, typeof table>(table, {
  refine(inputs, ctx) {
    const known = !isUnknown(inputs.type) && !isUnknown(inputs.nodes);
    if (known && inputs.type === "sandbox" && inputs.nodes !== SANDBOX_CLUSTER_NODES) {
      ctx.addIssue({ code: "custom", path: ["nodes"], message: `must be ${SANDBOX_CLUSTER_NODES} for a sandbox cluster, got ${inputs.nodes}` });
    }
  },
});

export type ClusterInputs = InputsOf<typeof table>;
export type ClusterOutputs = OutputsOf<typeof table, ClusterRecord>;
