/**
 * Cluster: compute that jobs run on (facts, "Clusters").
 *
 * A cluster takes a while to come up, so `create` (and an `update` of its nodes) waits until it
 * can run jobs, up to `timeoutSeconds`. Past that the cluster stays in the stack with its id
 * (partial state) and the next `pulumi up` waits for it again instead of creating another.
 * `nodes`, `name`, `description`, `terminateOnIdle` and `timeToIdle` update in place; `type` and
 * `region` are fixed at creation, so changing them replaces the cluster. `status`, the job
 * counts and the timestamps move on their own (an unused cluster goes idle): they are outputs
 * only and never a reason to change anything. A create whose outcome is unknown looks for a
 * cluster made since it was sent with every setting asked for before sending again (see
 * reconcile.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  CLUSTER_TYPES,
  READY_CLUSTER_STATUSES,
  clusterRecord,
  createCluster,
  listNewestClustersRequest,
  getCluster,
  terminateCluster,
  updateCluster,
  type ClusterCreate,
  type ClusterRecord,
  type ClusterType,
  type ClusterUpdate,
} from "../api/clusters";
import { EtlApiError, NotFoundError, ValidationError } from "../client/errors";
import type { RequestFn } from "../client/http";
import { cancellationReason, cancelSignal, isCancelled } from "../cancellation";
import { apiRequest } from "../context";
import { resourceType, withProvider } from "../dynamic";
import type { ResourceImplementation } from "./implementation";
import { AdoptionError, importIdInput } from "./adopt";
import { checkWithSchema, isUnknown, labelText, unlessUnknown } from "./check";
import { changedFields, diffByRules, type FieldRules } from "./diff";
import { keepingObject, lastReading, ResourceFailure, waitFailureOf } from "./failures";
import { collectRecent, createdInWindow, windowStart, finishingOnCancel } from "./reconcile";
import { reconciler, type Reconciler } from "./reconciler";
import { pollUntil, progressLines, readingFrom, WaitTimeoutError } from "./wait";

export interface ClusterArgs {
  /** Machines in the cluster, 1 to 100; a sandbox has exactly 1. Changing it rescales in place. */
  nodes: pulumi.Input<number>;
  /** `production` (the default) or `sandbox`. Changing it replaces the cluster. */
  type?: pulumi.Input<ClusterType>;
  /** 1 to 255 characters. Left out, the service names the cluster and Pulumi leaves the name alone. */
  name?: pulumi.Input<string>;
  /** Left out, the cluster has no description (one set elsewhere is removed). */
  description?: pulumi.Input<string>;
  /** Terminate the cluster after `timeToIdle` seconds without jobs; default false. */
  terminateOnIdle?: pulumi.Input<boolean>;
  /** Seconds without jobs before an idle cluster terminates itself, 300 to 86400; default 3600. */
  timeToIdle?: pulumi.Input<number>;
  /** Left out, the service picks the region and Pulumi leaves it alone. Changing it replaces the cluster. */
  region?: pulumi.Input<string>;
  /** How long `up` and `destroy` wait for the cluster to become ready or terminated; default 1800. */
  timeoutSeconds?: pulumi.Input<number>;
  /** The id of an existing cluster to manage instead of creating one. */
  importId?: pulumi.Input<string | number>;
}

/** Inputs after `check`; omitted ones stay omitted so the diff can tell "default" from "not managed". */
export interface ClusterInputs {
  nodes: number;
  type?: ClusterType;
  name?: string;
  description?: string;
  terminateOnIdle?: boolean;
  timeToIdle?: number;
  region?: string;
  timeoutSeconds?: number;
  importId?: string;
}

export interface ClusterOutputs {
  status: string;
  type: string;
  nodes: number;
  region: string;
  name: string;
  description: string;
  terminateOnIdle: boolean;
  timeToIdle: number;
  createdAt: string;
  updatedAt: string;
  availableSince: string | null;
  idleSince: string | null;
  terminatedAt: string | null;
  runningJobsCount: number;
  queuedJobsCount: number;
  ownerId: number;
  htmlUrl: string;
  timeoutSeconds?: number;
  importId?: string;
  /**
   * The inputs the program set. `read` sees only the outputs, where `name` and `region` are
   * always present (the service fills them in); this tells it which inputs to rebuild.
   */
  __inputsSet?: string[];
}

type InputName = keyof ClusterInputs;

const KIND = "cluster";
const DEFAULTS = { type: "production", description: "", terminateOnIdle: false, timeToIdle: 3600, timeoutSeconds: 1800 } as const;
/** Terminating and terminated clusters cannot run jobs and never come back. */
const ENDING_STATUSES: readonly string[] = ["pending_terminate", "terminating", "terminated"];

function integerBetween(min: number, max: number) {
  return z.number().refine(Number.isInteger, { message: "must be an integer", abort: true }).min(min).max(max);
}


const inputSchema = z
  .strictObject({
    nodes: unlessUnknown(integerBetween(1, 100)),
    type: unlessUnknown(z.enum(CLUSTER_TYPES)).optional(),
    name: unlessUnknown(labelText()).optional(),
    description: unlessUnknown(z.string()).optional(),
    terminateOnIdle: unlessUnknown(z.boolean()).optional(),
    timeToIdle: unlessUnknown(integerBetween(300, 86_400)).optional(),
    region: unlessUnknown(labelText()).optional(),
    timeoutSeconds: unlessUnknown(integerBetween(1, 86_400)).optional(),
    importId: importIdInput,
  })
  .superRefine((inputs, ctx) => {
    const known = !isUnknown(inputs.type) && !isUnknown(inputs.nodes);
    if (known && inputs.type === "sandbox" && inputs.nodes !== 1) {
      ctx.addIssue({ code: "custom", path: ["nodes"], message: `must be 1 for a sandbox cluster, got ${inputs.nodes}` });
    }
  });

/**
 * Omitted `type`, `description`, `terminateOnIdle`, `timeToIdle` and `timeoutSeconds` mean the
 * documented defaults; omitted `name` and `region` are not managed (see `rulesFor`). `type` and
 * `region` cannot change on a live cluster. `timeoutSeconds` and `importId` are the provider's
 * own: changing them updates the stack without an API call.
 */
const RULES: FieldRules<ClusterOutputs, ClusterInputs> = {
  nodes: { desired: (news) => news.nodes, current: (olds) => olds.nodes, onChange: "update" },
  type: { desired: (news) => news.type ?? DEFAULTS.type, current: (olds) => olds.type, onChange: "replace" },
  name: { desired: (news) => news.name, current: (olds) => olds.name, onChange: "update" },
  description: { desired: (news) => news.description ?? DEFAULTS.description, current: (olds) => olds.description, onChange: "update" },
  terminateOnIdle: {
    desired: (news) => news.terminateOnIdle ?? DEFAULTS.terminateOnIdle,
    current: (olds) => olds.terminateOnIdle,
    onChange: "update",
  },
  timeToIdle: { desired: (news) => news.timeToIdle ?? DEFAULTS.timeToIdle, current: (olds) => olds.timeToIdle, onChange: "update" },
  region: { desired: (news) => news.region, current: (olds) => olds.region, onChange: "replace" },
  timeoutSeconds: {
    desired: (news) => news.timeoutSeconds ?? DEFAULTS.timeoutSeconds,
    current: (olds) => olds.timeoutSeconds ?? DEFAULTS.timeoutSeconds,
    onChange: "update",
  },
};

const NOT_MANAGED_WHEN_OMITTED: readonly InputName[] = ["name", "region"];

/** The fields a PUT can change, by their API names. */
const UPDATABLE: Partial<Record<InputName, keyof ClusterUpdate>> = {
  nodes: "nodes",
  name: "name",
  description: "description",
  terminateOnIdle: "terminate_on_idle",
  timeToIdle: "time_to_idle",
};

function rulesFor(news: ClusterInputs): FieldRules<ClusterOutputs, ClusterInputs> {
  return Object.fromEntries(
    Object.entries(RULES).filter(([field]) => !NOT_MANAGED_WHEN_OMITTED.includes(field as InputName) || news[field as InputName] !== undefined),
  );
}

function isReady(status: string): boolean {
  return (READY_CLUSTER_STATUSES as readonly string[]).includes(status);
}

function isEnding(status: string): boolean {
  return ENDING_STATUSES.includes(status);
}

function timeoutOf(inputs: { timeoutSeconds?: number }): number {
  return inputs.timeoutSeconds ?? DEFAULTS.timeoutSeconds;
}

function inputsSet(inputs: ClusterInputs): string[] {
  return Object.entries(inputs)
    .filter(([name, value]) => value !== undefined && !name.startsWith("__"))
    .map(([name]) => name);
}

function recordOutputs(record: ClusterRecord) {
  return {
    status: record.status,
    type: record.type,
    nodes: record.nodes,
    region: record.region,
    name: record.name,
    description: record.description,
    terminateOnIdle: record.terminate_on_idle,
    timeToIdle: record.time_to_idle,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    availableSince: record.available_since,
    idleSince: record.idle_since,
    terminatedAt: record.terminated_at,
    runningJobsCount: record.running_jobs_count,
    queuedJobsCount: record.queued_jobs_count,
    ownerId: record.owner_id,
    htmlUrl: record.html_url,
  };
}

/** The provider's own inputs, which the service does not hold. */
function providerInputs(inputs: ClusterInputs): Pick<ClusterOutputs, "timeoutSeconds" | "importId" | "__inputsSet"> {
  return {
    ...(inputs.timeoutSeconds === undefined ? {} : { timeoutSeconds: inputs.timeoutSeconds }),
    ...(inputs.importId === undefined ? {} : { importId: inputs.importId }),
    __inputsSet: inputsSet(inputs),
  };
}

/** The service's part of recorded outputs. */
function withoutProviderInputs({ timeoutSeconds: _t, importId: _i, __inputsSet: _s, ...rest }: ClusterOutputs): ClusterOutputs {
  return rest;
}

/** The provider's own inputs as recorded in outputs, carried over to fresh ones. */
function recordedProviderInputs({ timeoutSeconds, importId, __inputsSet }: ClusterOutputs): Partial<ClusterOutputs> {
  return {
    ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
    ...(importId === undefined ? {} : { importId }),
    ...(__inputsSet === undefined ? {} : { __inputsSet }),
  };
}

function outputsOf(record: ClusterRecord, inputs: ClusterInputs): ClusterOutputs {
  return { ...recordOutputs(record), ...providerInputs(inputs) };
}

/** Outputs kept with a failure, so the engine records the cluster (and can still delete it). */
function partialState(record: ClusterRecord, inputs: ClusterInputs): ClusterOutputs {
  return outputsOf(record, inputs);
}

/** The inputs that would produce the cluster as it now is, for the inputs the program set. */
function realignedInputs(outputs: ClusterOutputs, set: readonly string[] | undefined): Partial<ClusterInputs> {
  const rebuilt: Record<InputName, unknown> = {
    nodes: outputs.nodes,
    type: outputs.type,
    name: outputs.name,
    description: outputs.description,
    terminateOnIdle: outputs.terminateOnIdle,
    timeToIdle: outputs.timeToIdle,
    region: outputs.region,
    timeoutSeconds: outputs.timeoutSeconds,
    importId: outputs.importId,
  };
  const keep = (name: string) => set === undefined || name === "nodes" || set.includes(name);
  return Object.fromEntries(Object.entries(rebuilt).filter(([name, value]) => value !== undefined && keep(name)));
}

/** A PUT body carrying only what differs from the cluster as last seen. */
function updateBody(olds: ClusterOutputs, news: ClusterInputs): ClusterUpdate {
  const rules = rulesFor(news);
  const body: Record<string, unknown> = {};
  for (const field of changedFields(rules, olds, news)) {
    const apiName = UPDATABLE[field as InputName];
    if (apiName !== undefined) body[apiName] = rules[field]!.desired(news);
  }
  return body as ClusterUpdate;
}

function createBody(inputs: ClusterInputs): ClusterCreate {
  const optional = {
    type: inputs.type,
    name: inputs.name,
    description: inputs.description,
    terminate_on_idle: inputs.terminateOnIdle,
    time_to_idle: inputs.timeToIdle,
    region: inputs.region,
  };
  const given = Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined));
  return { nodes: inputs.nodes, ...given };
}

/** "cluster 202 creating", once per status. */
function progressPrinter(id: string): (record: ClusterRecord | undefined) => void {
  return progressLines((record) => (record === undefined ? undefined : `cluster ${id} ${record.status}`));
}

/** The cluster, or undefined once the service no longer knows it. */
async function findCluster(request: RequestFn, id: string): Promise<ClusterRecord | undefined> {
  try {
    return await getCluster(request, id);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/**
 * Waits until the cluster can run jobs. Whatever ends the wait early (its timeout, an outage, a
 * cancellation) is reported with the cluster's id and state, so the stack keeps it and the next
 * `up` waits for it again.
 */
async function waitUntilReady(request: RequestFn, first: ClusterRecord, inputs: ClusterInputs): Promise<ClusterRecord> {
  const id = String(first.id);
  const seconds = timeoutOf(inputs);
  let current: ClusterRecord | undefined;
  try {
    ({ current } = await pollUntil<ClusterRecord | undefined>({
      read: readingFrom<ClusterRecord | undefined>(first, () => findCluster(request, id)),
      isDone: (record) => record === undefined || isReady(record.status) || isEnding(record.status) || record.status === "error",
      onProgress: progressPrinter(id),
      timeoutMs: seconds * 1000,
      signal: cancelSignal,
    }));
  } catch (error) {
    const last = lastReading<ClusterRecord | undefined>(error, first) ?? first;
    if (error instanceof WaitTimeoutError) {
      throw new ResourceFailure(
        `cluster ${id} is not ready after ${seconds} s (it is ${last.status}); it stays in the stack and the next \`pulumi up\` waits for it again (timeoutSeconds sets how long)`,
        id,
        partialState(last, inputs),
      );
    }
    throw keepingObject(error, {
      what: `cluster ${id} (it is ${last.status})`,
      id,
      properties: partialState(last, inputs),
      next: "the next `pulumi up` waits for it again",
    });
  }
  if (current === undefined || isEnding(current.status)) {
    throw new ResourceFailure(`cluster ${id} was terminated before it became ready`);
  }
  if (current.status === "error") {
    throw new ResourceFailure(`cluster ${id} failed: the service reports its status as error`, id, partialState(current, inputs));
  }
  return current;
}

async function settled(request: RequestFn, record: ClusterRecord, inputs: ClusterInputs): Promise<ClusterOutputs> {
  const ready = isReady(record.status) ? record : await waitUntilReady(request, record, inputs);
  return outputsOf(ready, inputs);
}

/**
 * Brings the cluster to the inputs: a PUT of what differs, and a wait when it is not ready (new
 * nodes, or a cluster still coming up from an earlier `up`). Nothing to send and nothing to wait
 * for means no API call at all.
 */
async function update(id: string, olds: ClusterOutputs, news: ClusterInputs): Promise<ClusterOutputs> {
  const request = apiRequest();
  const body = updateBody(olds, news);
  if (Object.keys(body).length > 0) return settled(request, await updateCluster(request, id, body), news);
  if (isReady(olds.status)) return { ...withoutProviderInputs(olds), ...providerInputs(news) };
  return settled(request, await getCluster(request, id), news);
}

function adoptionConflicts(record: ClusterRecord, inputs: ClusterInputs): string[] {
  const conflicts: string[] = [];
  if (isEnding(record.status)) conflicts.push(`it is ${record.status}: a terminating or terminated cluster cannot run jobs again`);
  const type = inputs.type ?? DEFAULTS.type;
  if (record.type !== type) conflicts.push(`type is ${record.type}, not ${type}, and cannot be changed`);
  if (inputs.region !== undefined && record.region !== inputs.region) {
    conflicts.push(`region is ${record.region}, not ${inputs.region}, and cannot be changed`);
  }
  return conflicts;
}

async function adopt(importId: string, inputs: ClusterInputs): Promise<ClusterOutputs> {
  const request = apiRequest();
  const record = await findCluster(request, importId);
  if (record === undefined) throw new AdoptionError(KIND, importId, `no ${KIND} ${importId} in this account`);
  const conflicts = adoptionConflicts(record, inputs);
  if (conflicts.length > 0) throw new AdoptionError(KIND, importId, conflicts.join("; "));
  const body = updateBody(outputsOf(record, inputs), inputs);
  if (Object.keys(body).length === 0) return settled(request, record, inputs);
  let updated: ClusterRecord;
  try {
    updated = await updateCluster(request, importId, body);
  } catch (error) {
    // Nothing changed, so nothing is kept: the next `up` tries the adoption afresh.
    if (error instanceof EtlApiError) throw new AdoptionError(KIND, importId, error.message);
    throw error;
  }
  return settled(request, updated, inputs);
}

function isAlreadyTerminated(error: unknown): boolean {
  return error instanceof ValidationError && /already terminated/i.test(error.serviceMessage);
}

/** Starts termination; undefined when there is nothing left to terminate. */
async function startTermination(request: RequestFn, id: string): Promise<ClusterRecord | undefined> {
  try {
    return await terminateCluster(request, id);
  } catch (error) {
    if (error instanceof NotFoundError || isAlreadyTerminated(error)) return undefined;
    throw error;
  }
}

async function terminate(id: string, props: Partial<ClusterOutputs>): Promise<void> {
  const request = apiRequest();
  const first = await startTermination(request, id);
  if (first === undefined) return;
  const seconds = timeoutOf(props);
  const again = "its termination was asked for, it stays in the stack, and the next `pulumi destroy` (or `pulumi up`, if it is still declared) waits for it again";
  try {
    await pollUntil<ClusterRecord | undefined>({
      read: readingFrom<ClusterRecord | undefined>(first, () => findCluster(request, id)),
      isDone: (record) => record === undefined || record.status === "terminated",
      onProgress: progressPrinter(id),
      timeoutMs: seconds * 1000,
      signal: cancelSignal,
    });
  } catch (error) {
    const status = lastReading<ClusterRecord | undefined>(error, first)?.status ?? first.status;
    if (error instanceof WaitTimeoutError) {
      throw new ResourceFailure(`cluster ${id} is still ${status} after ${seconds} s: ${again} (timeoutSeconds sets how long)`);
    }
    const cause = isCancelled() ? cancellationReason() : `reading it failed (${waitFailureOf(error)})`;
    throw new ResourceFailure(`cluster ${id} is ${status} and ${cause} before it was terminated: ${again}`);
  }
}

/**
 * Whether a create sent at `sentAt` may have made this cluster: made since then by this user,
 * still alive, and with every setting the create asked for (omitted ones at their defaults;
 * an omitted name or region is the service's choice, so any).
 */
export function isClusterCreatedBy(record: ClusterRecord, inputs: ClusterInputs, sentAt: number, owners: Pick<Reconciler, "ownerMatches"> = reconciler()): boolean {
  return (
    createdInWindow(record.created_at, sentAt) &&
    owners.ownerMatches(record.owner_id) &&
    !isEnding(record.status) &&
    record.type === (inputs.type ?? DEFAULTS.type) &&
    record.nodes === inputs.nodes &&
    (inputs.name === undefined || record.name === inputs.name) &&
    (inputs.region === undefined || record.region === inputs.region) &&
    record.description === (inputs.description ?? DEFAULTS.description) &&
    record.terminate_on_idle === (inputs.terminateOnIdle ?? DEFAULTS.terminateOnIdle) &&
    record.time_to_idle === (inputs.timeToIdle ?? DEFAULTS.timeToIdle)
  );
}

/** The clusters, newest first, that a create sent at `sentAt` may have made. */
export async function findCreatedCluster(request: RequestFn, inputs: ClusterInputs, sentAt: number): Promise<ClusterRecord[]> {
  const since = windowStart(sentAt);
  const recent = await collectRecent(request, listNewestClustersRequest, clusterRecord, (c) => Date.parse(c.created_at) < since, "clusters");
  return recent.filter((record) => isClusterCreatedBy(record, inputs, sentAt));
}

export const clusterProvider = {
  async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
    return checkWithSchema(inputSchema, news);
  },

  async diff(_id: string, olds: ClusterOutputs, news: ClusterInputs): Promise<pulumi.dynamic.DiffResult> {
    return diffByRules(rulesFor(news), olds, news);
  },

  async create(inputs: ClusterInputs): Promise<pulumi.dynamic.CreateResult<ClusterOutputs>> {
    if (inputs.importId !== undefined) return { id: inputs.importId, outs: await adopt(inputs.importId, inputs) };
    const request = apiRequest();
    const { record } = await reconciler().createOnce({
      kind: KIND,
      send: () => createCluster(request, createBody(inputs)),
      find: (sentAt) => findCreatedCluster(finishingOnCancel(request), inputs, sentAt),
      idOf: (cluster) => cluster.id,
    });
    reconciler().noteOwner(record.owner_id);
    return { id: String(record.id), outs: await settled(request, record, inputs) };
  },

  /**
   * A terminating or terminated cluster counts as gone: it cannot run jobs and cannot be brought
   * back, so the refresh drops it and the next `up` creates a new one.
   */
  async read(id: string, props: ClusterOutputs): Promise<pulumi.dynamic.ReadResult> {
    const record = await findCluster(apiRequest(), id);
    if (record === undefined || isEnding(record.status)) return {};
    const outputs = { ...recordOutputs(record), ...recordedProviderInputs(props) };
    return { id, props: outputs, inputs: realignedInputs(outputs, props.__inputsSet) };
  },

  async update(id: string, olds: ClusterOutputs, news: ClusterInputs): Promise<pulumi.dynamic.UpdateResult<ClusterOutputs>> {
    return { outs: await update(id, olds, news) };
  },

  async delete(id: string, props: Partial<ClusterOutputs>): Promise<void> {
    await terminate(id, props);
  },
} satisfies ResourceImplementation<ClusterInputs, ClusterOutputs>;

export class Cluster extends pulumi.CustomResource {
  declare readonly status: pulumi.Output<string>;
  declare readonly type: pulumi.Output<string>;
  declare readonly nodes: pulumi.Output<number>;
  declare readonly region: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string>;
  declare readonly terminateOnIdle: pulumi.Output<boolean>;
  declare readonly timeToIdle: pulumi.Output<number>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;
  declare readonly availableSince: pulumi.Output<string | null>;
  declare readonly idleSince: pulumi.Output<string | null>;
  declare readonly terminatedAt: pulumi.Output<string | null>;
  declare readonly runningJobsCount: pulumi.Output<number>;
  declare readonly queuedJobsCount: pulumi.Output<number>;
  declare readonly ownerId: pulumi.Output<number>;
  declare readonly htmlUrl: pulumi.Output<string>;
  declare readonly timeoutSeconds: pulumi.Output<number | undefined>;
  declare readonly importId: pulumi.Output<string | undefined>;

  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    // Every output is named in the props (as undefined) so the engine exposes it on the class.
    const outputs = {
      status: undefined,
      type: undefined,
      region: undefined,
      name: undefined,
      description: undefined,
      terminateOnIdle: undefined,
      timeToIdle: undefined,
      createdAt: undefined,
      updatedAt: undefined,
      availableSince: undefined,
      idleSince: undefined,
      terminatedAt: undefined,
      runningJobsCount: undefined,
      queuedJobsCount: undefined,
      ownerId: undefined,
      htmlUrl: undefined,
      timeoutSeconds: undefined,
      importId: undefined,
    };
    super(resourceType("Cluster"), name, withProvider("Cluster", { ...outputs, ...args }), opts);
  }
}
