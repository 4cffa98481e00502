/**
 * Recovering clusters: a name is not unique, so a cluster is the one made in the deployment's
 * window with every setting asked for. One still coming up is waited for by the next `up`.
 */
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedCluster } from "./provider";
import { isReady } from "./waits";

export const clusterRecover: RecoverDeclaration = {
  by: "its settings and creation time",
  find: findCreatedCluster,
  unsettled: (outputs) => (isReady(String(outputs.status)) ? undefined : `it is ${String(outputs.status)}`),
};
