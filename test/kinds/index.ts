/**
 * Every resource kind's test facts, by kind (each from test/kinds/<kind>/entry.ts): where the
 * service keeps its objects, its example as a program gives it, what replaces it, its part in
 * the soak, its bad inputs. A kind added to the registry without its line here fails to compile.
 */
import type { ResourceKind } from "../../provider/resources/registry";
import { account } from "./account/entry";
import { cluster } from "./cluster/entry";
import { clusterWatcher } from "./cluster-watcher/entry";
import { connectionGroup } from "./connection-group/entry";
import { connection } from "./connection/entry";
import { delivery } from "./delivery/entry";
import { hook } from "./hook/entry";
import { jobRun } from "./job-run/entry";
import type { KindTests } from "./kind-tests";
import { member } from "./member/entry";
import { pkg } from "./package/entry";
import { publicKey } from "./public-key/entry";
import { schedule } from "./schedule/entry";
import { userSettings } from "./user-settings/entry";

export type { BadInput, KindTests, ServiceObject, StackInputs, StateDump, StateRow } from "./kind-tests";

export const KIND_TESTS = {
  Account: account,
  Cluster: cluster,
  ClusterWatcher: clusterWatcher,
  Connection: connection,
  ConnectionGroup: connectionGroup,
  Delivery: delivery,
  Hook: hook,
  JobRun: jobRun,
  Member: member,
  Package: pkg,
  PublicKey: publicKey,
  Schedule: schedule,
  UserSettings: userSettings,
} satisfies Record<ResourceKind, KindTests>;
