import { dataFlowErrors, destinationsOf, type DataFlow, type FlowComponent } from "../../../contract/data-flow";
import type { Store } from "../../store";
import { connectionFacts, connectionTestFailure } from "../connections/interface";
import type { PackageRow, PackageRun } from "./model";

/**
 * How a job of a package with a flow runs (the facts leave it to the service): it fails at once,
 * with the reason, when the flow is invalid or a connection it uses is gone or fails its test;
 * otherwise it completes with one output per destination. Records are derived from the flow:
 * each source reads SOURCE_RECORDS, a filter keeps half, an aggregate one in a hundred (at least
 * one), a join as many as its smaller input; a destination writes what reaches it.
 */

export const SOURCE_RECORDS = 1000;
/** Simulated seconds: a base, and more for each component. */
const BASE_SECONDS = 10;
const SECONDS_PER_COMPONENT = 2;

export const DEFAULT_RUN: PackageRun = { seconds: 10, outcome: "completed", outputs: [] };

/** Only for a flow that breaks no rule (`flowFailure` comes first): it has no cycle, and every edge names components. */
function recordsOf(flow: DataFlow, component: FlowComponent): number {
  const inputs = flow.edges.filter((edge) => edge.to === component.name).map((edge) => recordsOf(flow, flow.components.find((c) => c.name === edge.from)!));
  switch (component.type) {
    case "source":
      return SOURCE_RECORDS;
    case "filter":
      return Math.ceil((inputs[0] ?? 0) / 2);
    case "aggregate":
      return Math.max(1, Math.floor((inputs[0] ?? 0) / 100));
    case "join":
      return inputs.length === 0 ? 0 : Math.min(...inputs);
    default:
      return inputs[0] ?? 0;
  }
}

/** The fields that reach a destination: those of the nearest select or aggregate upstream (a valid flow, as for `recordsOf`). */
function fieldsReaching(flow: DataFlow, component: FlowComponent): string[] {
  if (component.type === "select" && component.fields) return component.fields;
  if (component.type === "aggregate") return [...(component.fields ?? []), ...Object.keys(component.measures ?? {})];
  const input = flow.edges.find((edge) => edge.to === component.name);
  const upstream = input && flow.components.find((c) => c.name === input.from);
  return upstream ? fieldsReaching(flow, upstream) : [];
}

/** Why a job of this flow cannot run now, or undefined. */
function flowFailure(store: Store, accountId: number, pkg: PackageRow, flow: DataFlow): string | undefined {
  const kindOf = (id: number) => connectionFacts(store, accountId, id)?.kind;
  const invalid = dataFlowErrors(flow, pkg.variables, kindOf)[0];
  if (invalid !== undefined) return `The package's flow is invalid: ${invalid.message}`;
  for (const component of flow.components) {
    if (component.connection === undefined) continue;
    const failure = connectionTestFailure(store, accountId, component.connection.id);
    if (failure !== undefined) return `${component.type} "${component.name}" cannot use connection ${component.connection.id}: ${failure}`;
  }
  return undefined;
}

/** How a job of the package made now behaves; decided once, so the job runs the same however long it waits. */
export function runOfPackage(store: Store, pkg: PackageRow): PackageRun {
  const flow = pkg.dataFlow;
  if (flow === undefined || flow === null) return pkg.run ?? DEFAULT_RUN;
  const seconds = BASE_SECONDS + SECONDS_PER_COMPONENT * flow.components.length;
  const failure = flowFailure(store, pkg.accountId, pkg, flow);
  if (failure !== undefined) return { seconds: 1, outcome: "failed", error: failure, outputs: [] };
  const outputs = destinationsOf(flow).map((destination) => ({
    name: destination.table ?? destination.path ?? destination.name,
    records: recordsOf(flow, destination),
    component: { name: destination.name, type: "destination", fields: fieldsReaching(flow, destination) },
  }));
  return { seconds, outcome: "completed", outputs };
}
