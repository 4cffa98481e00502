/**
 * Every resource's provider object, by kind. The kind names are stored in every stack's state
 * (the type token `pulumi-nodejs:dynamic/etl:<Kind>` and the one-line provider), so never renamed.
 */
import { clusterProvider } from "./cluster/provider";
import { connectionGroupProvider } from "./connection-group/provider";
import { connectionProvider } from "./connection/provider";
import { hookProvider } from "./hook/provider";
import { jobRunProvider } from "./job-run/provider";
import { memberProvider } from "./member/provider";
import { publicKeyProvider } from "./public-key/provider";
import { scheduleProvider } from "./schedule/provider";
import type { ResourceImplementation } from "./shared/implementation";

export const PROVIDERS = {
  PublicKey: publicKeyProvider,
  ConnectionGroup: connectionGroupProvider,
  Cluster: clusterProvider,
  JobRun: jobRunProvider,
  Schedule: scheduleProvider,
  Hook: hookProvider,
  Member: memberProvider,
  Connection: connectionProvider,
} satisfies Record<string, ResourceImplementation<unknown, unknown>>;

export type ResourceKind = keyof typeof PROVIDERS;
