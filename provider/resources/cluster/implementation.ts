/**
 * Cluster: compute that jobs run on (facts, "Clusters").
 *
 * A cluster takes a while to come up, so `create` (and an `update` of its nodes) waits until it
 * can run jobs, up to `timeoutSeconds` (waits.ts). Past that the cluster stays in the stack with
 * its id (partial state) and the next `pulumi up` waits for it again instead of creating
 * another. A create whose outcome is unknown looks for a cluster made since it was sent with
 * every setting asked for before sending again (see shared/reconciler.ts).
 */
import { clusterRecord, createCluster, listNewestClustersRequest, getCluster, updateCluster, type ClusterRecord, type ClusterUpdate } from "../../api/clusters";
import type { OperationContext } from "../../context";
import { AdoptionError, adoptionChange, objectToAdopt } from "../shared/adopt";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { batchedRead, type KindListing } from "../shared/batched-reads";
import { unlessGone } from "../shared/gone";
import { createdLookup, newestListed } from "../shared/created-lookup";
import { tableOperations, type ClusterInputs, type ClusterOutputs } from "./fields";
import { isEnding, isReady, settled, terminate } from "./waits";

const KIND = "cluster";

/**
 * Brings the cluster to the inputs: a PUT of what differs, and a wait when it is not ready (new
 * nodes, or a cluster still coming up from an earlier `up`). Nothing to send and nothing to wait
 * for means no API call at all.
 */
async function update(ctx: OperationContext, id: string, olds: ClusterOutputs, news: ClusterInputs): Promise<ClusterOutputs> {
  const { request } = ctx;
  const body = tableOperations.updateBody(olds, news) as ClusterUpdate;
  if (Object.keys(body).length > 0) return settled(ctx, await updateCluster(request, id, body), news);
  if (isReady(olds.status)) return tableOperations.withOwnInputs(olds, news);
  return settled(ctx, await getCluster(request, id), news);
}

/** What keeps an existing cluster from being this resource's: what cannot change. */
function adoptionConflicts(record: ClusterRecord, inputs: ClusterInputs): string[] {
  const conflicts: string[] = [];
  if (isEnding(record.status)) conflicts.push(`it is ${record.status}: a terminating or terminated cluster cannot run jobs again`);
  const type = tableOperations.desired("type", inputs);
  if (record.type !== type) conflicts.push(`type is ${record.type}, not ${String(type)}, and cannot be changed`);
  if (inputs.region !== undefined && record.region !== inputs.region) {
    conflicts.push(`region is ${record.region}, not ${inputs.region}, and cannot be changed`);
  }
  return conflicts;
}

async function adopt(ctx: OperationContext, importId: string, inputs: ClusterInputs): Promise<ClusterOutputs> {
  const { request } = ctx;
  const record = await objectToAdopt(KIND, importId, () => getCluster(request, importId));
  const conflicts = adoptionConflicts(record, inputs);
  if (conflicts.length > 0) throw new AdoptionError(KIND, importId, conflicts.join("; "));
  const body = tableOperations.updateBody(tableOperations.outputs(record, inputs), inputs) as ClusterUpdate;
  if (Object.keys(body).length === 0) return settled(ctx, record, inputs);
  const updated = await adoptionChange(KIND, importId, () => updateCluster(request, importId, body));
  return settled(ctx, updated, inputs);
}

/**
 * The cluster a create may have made: made since it was sent by this user, still alive, and with
 * every setting the create asked for (omitted ones at their defaults; an omitted name or region
 * is the service's choice, so any).
 */
export const createdCluster = createdLookup<ClusterRecord, ClusterInputs>({
  candidates: newestListed(clusterRecord, "clusters", () => listNewestClustersRequest),
  madeBy: (record, inputs, owners) => owners.ownerMatches(record.owner_id) && !isEnding(record.status) && tableOperations.hasSentValues(record, inputs),
});

/** Every cluster, oldest first: a refresh of many reads them from here. */
const CLUSTER_LISTING: KindListing = {
  listing: { method: "GET", path: "/clusters", query: { status: "all", direction: "asc", limit: 100 } },
  item: clusterRecord,
  createdOf: (cluster) => (cluster as ClusterRecord).created_at,
};

export const clusterImplementation = {
  ...standardOperations(tableOperations, {
    kind: KIND,
    create: createCluster,
    findCreated: createdCluster.find,
    get: getCluster,
    remove: (ctx, id, props) => terminate(ctx, id, props),
    update,
    adopt,
    settle: (ctx, record, inputs) => settled(ctx, record, inputs),
  }),

  /**
   * A terminating or terminated cluster counts as gone: it cannot run jobs and cannot be brought
   * back, so the refresh drops it and the next `up` creates a new one.
   */
  async read(ctx: OperationContext, id: string, props: ClusterOutputs) {
    const { request } = ctx;
    const record = await unlessGone(batchedRead(ctx.reads, request, KIND, CLUSTER_LISTING, { id, createdAt: props.createdAt }, () => getCluster(request, id)));
    return tableOperations.readResult(id, record !== undefined && isEnding(record.status) ? undefined : record, props);
  },
} satisfies ResourceImplementation<ClusterInputs, ClusterOutputs>;
