/**
 * ClusterWatcher: the API key's user watching a cluster, told through their notifications when it
 * becomes available, terminates or fails (`{base_url}/clusters/:id/watchers`, facts "Notifications
 * and watchers"). Watching twice keeps the first watch, so a create that may have been sent is
 * sent again safely; the id is the cluster's, as the user watches a cluster once.
 *
 * The watchers list shows every user who watches, so a read looks for the user the watcher
 * recorded. Stopping is the caller's own, so under another user's API key a delete stops with
 * what to do rather than ending that user's watch, or nobody's.
 */
import { z } from "zod";
import { parseRecord } from "../../api/records";
import { NotFoundError } from "../../client/errors";
import type { RequestFn } from "../../client/http";
import type { OperationContext, SettingsUse } from "../../context";
import { currentUser, currentUserId } from "../shared/current-user";
import { ResourceFailure } from "../shared/failures";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { tableOperations, type ClusterWatcherInputs, type ClusterWatcherOutputs, type ClusterWatcherRecord } from "./fields";

const KIND = "cluster watcher";

const watcherItem = z.object({ id: z.number().int(), display_name: z.string().nullish() });

const watchersPath = (clusterId: string | number) => `/clusters/${encodeURIComponent(String(clusterId))}/watchers`;

async function listWatchers(request: RequestFn, clusterId: string | number): Promise<Array<z.output<typeof watcherItem>>> {
  const response = await request({ method: "GET", path: watchersPath(clusterId) });
  return parseRecord(z.array(watcherItem), response.body, "a cluster's watchers");
}

function notWatching(clusterId: string, userId: number): NotFoundError {
  const request = { method: "GET", url: watchersPath(clusterId), headers: {} };
  return new NotFoundError({ status: 404, request, serviceMessage: `user ${userId} does not watch cluster ${clusterId}` });
}

function watchRecord(clusterId: string, user: number, watcher: z.output<typeof watcherItem>): ClusterWatcherRecord {
  return { id: Number(clusterId), user_id: user, display_name: watcher.display_name ?? "" };
}

/** The cluster's watch by `userId` (the settings' user when not given), as its watchers list shows it. */
async function watchOf(settings: SettingsUse, clusterId: string, userId?: number): Promise<ClusterWatcherRecord> {
  const [watchers, user] = await Promise.all([listWatchers(settings.request, clusterId), userId ?? currentUserId(settings)]);
  const found = watchers.find((watcher) => watcher.id === user);
  if (found === undefined) throw notWatching(clusterId, user);
  return watchRecord(clusterId, user, found);
}

/**
 * Watches the cluster, unless the settings' user watches it already: taking over a watch sends
 * nothing. The cluster's watchers are read first: a cluster that does not exist answers 404
 * there, which the create's failure explains naming `clusterId`, with nothing written.
 */
async function watch(settings: SettingsUse, clusterId: string): Promise<ClusterWatcherRecord> {
  const [watchers, user] = await Promise.all([listWatchers(settings.request, clusterId), currentUserId(settings)]);
  const existing = watchers.find((watcher) => watcher.id === user);
  if (existing !== undefined) return watchRecord(clusterId, user, existing);
  await settings.request({ method: "POST", path: watchersPath(clusterId) });
  return watchOf(settings, clusterId);
}

/** The settings' user watches the cluster already: a create sent before made it, or they made the cluster (its maker watches it). */
async function findWatch(settings: SettingsUse, inputs: ClusterWatcherInputs): Promise<ClusterWatcherRecord[]> {
  return watchOf(settings, String(inputs.clusterId)).then(
    (found) => [found],
    (error: unknown) => (error instanceof NotFoundError ? [] : Promise.reject(error)),
  );
}

/** Only the watching user can stop: another user's API key stops the delete, naming both users. */
async function unwatch(ctx: OperationContext, id: string, props: ClusterWatcherOutputs): Promise<void> {
  const current = await currentUserId(ctx);
  if (props.userId !== undefined && props.userId !== current) {
    const { email } = await currentUser(ctx);
    throw new ResourceFailure(
      `cluster watcher of cluster ${id} is user ${props.userId}'s, but the provider's API key (etl:apiKey) is now user ${current}'s (${email}), ` +
        "and a user can stop only their own watching; nothing was changed. " +
        `Set etl:apiKey back to user ${props.userId}'s key, or leave the watch to that user with \`pulumi state delete <its URN>\`.`,
    );
  }
  await ctx.request({ method: "DELETE", path: watchersPath(id) });
}

export { findWatch };

export const clusterWatcherImplementation = standardOperations<ClusterWatcherRecord, ClusterWatcherInputs, ClusterWatcherOutputs, unknown>(tableOperations, {
  kind: KIND,
  create: (_request, _body, inputs, settings) => watch(settings, String(inputs.clusterId)),
  findCreated: (_request, inputs, _sentAt, _owners, settings) => findWatch(settings, inputs),
  get: (_request, id, props, settings) => watchOf(settings, id, props.userId),
  remove: unwatch,
  adopt: async (ctx, importId, inputs) => tableOperations.outputs(await watch(ctx, importId), inputs),
  // Another cluster's watch is made before the old one ends; the same cluster's is the same watch,
  // which the replacement takes over and the original's delete then leaves in place (held.ts).
  diffOptions: { deleteBeforeReplace: false },
}) satisfies ResourceImplementation<ClusterWatcherInputs, ClusterWatcherOutputs>;
