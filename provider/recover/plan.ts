/**
 * What each pending create made: the kind's own lookup (its `recover` declaration) finds the
 * objects a create of the recorded inputs made since the killed deployment began, leaving out
 * the objects the stack holds already. One object is adopted; none means nothing was made; more
 * than one, or one that two creates could each have made, is left to the user.
 */
import { RESOURCES, type ResourceKind } from "../resources/registry";
import type { Destination } from "./accounts";
import { idsInState, kindOfType, pendingCreates, sentInputs, type Deployment, type PendingOperation } from "./state";

export type Finding =
  | { kind: ResourceKind; op: PendingOperation; outcome: "found"; id: string; how: string }
  | { kind: ResourceKind; op: PendingOperation; outcome: "not created"; accountId: string }
  | { kind: ResourceKind; op: PendingOperation; outcome: "ambiguous"; ids: string[] }
  | { kind: ResourceKind; op: PendingOperation; outcome: "lookup failed"; reason: string };

/** The resource's name: the last part of its urn. */
export function nameOf(urn: string): string {
  return urn.split("::").pop()!;
}

async function findOne(
  destinationOf: (op: PendingOperation) => Destination,
  kind: ResourceKind,
  op: PendingOperation,
  plain: PendingOperation,
  since: number,
  held: Set<string>,
): Promise<Finding> {
  const declaration = RESOURCES[kind].recover;
  try {
    const { request, accountId } = destinationOf(op);
    const found = await declaration.find(request, sentInputs(plain), since);
    const ids = [...new Set(found.map((record: { id: number }) => String(record.id)))].filter((id) => !held.has(id));
    if (ids.length === 0) return { kind, op, outcome: "not created", accountId };
    if (ids.length > 1) return { kind, op, outcome: "ambiguous", ids };
    return { kind, op, outcome: "found", id: ids[0]!, how: `by ${declaration.by} in account ${accountId}` };
  } catch (error) {
    return { kind, op, outcome: "lookup failed", reason: error instanceof Error ? error.message : String(error) };
  }
}

/** An object two pending creates each found could be either's: neither takes it. */
function withoutSharedFinds(findings: Finding[]): Finding[] {
  const finders = new Map<string, number>();
  for (const finding of findings)
    if (finding.outcome === "found") finders.set(`${finding.kind}:${finding.id}`, (finders.get(`${finding.kind}:${finding.id}`) ?? 0) + 1);
  return findings.map((finding) => {
    if (finding.outcome !== "found" || finders.get(`${finding.kind}:${finding.id}`) === 1) return finding;
    return { kind: finding.kind, op: finding.op, outcome: "ambiguous", ids: [finding.id] };
  });
}

export interface PlanOptions {
  /** The earliest moment the killed deployment can have sent a create (ms). */
  since: number;
  /** Objects the user chose for pending creates, by resource name or urn. */
  chosen: Map<string, string>;
}

/**
 * Each pending create's finding, in the order the engine recorded them, each looked for in the
 * account its provider sent it to. `plain` is the same state with its secrets shown.
 */
export async function findObjects(
  destinationOf: (op: PendingOperation) => Destination,
  state: Deployment,
  plain: Deployment,
  options: PlanOptions,
): Promise<Finding[]> {
  const held = idsInState(state);
  const plainOps = new Map(pendingCreates(plain).map((op) => [op.resource.urn, op]));
  const choiceOf = (op: PendingOperation) => options.chosen.get(op.resource.urn) ?? options.chosen.get(nameOf(op.resource.urn));
  // What the user chose is no other create's.
  for (const op of pendingCreates(state)) {
    const kind = kindOfType(op.resource.type)!;
    const chosen = choiceOf(op);
    if (chosen !== undefined) held.set(kind, (held.get(kind) ?? new Set()).add(chosen));
  }
  const chosenFindings: Finding[] = [];
  const looked: Finding[] = [];
  for (const op of pendingCreates(state)) {
    const kind = kindOfType(op.resource.type)!;
    const chosen = choiceOf(op);
    if (chosen !== undefined) chosenFindings.push({ kind, op, outcome: "found", id: chosen, how: "as chosen with --adopt" });
    else looked.push(await findOne(destinationOf, kind, op, plainOps.get(op.resource.urn) ?? op, options.since, held.get(kind) ?? new Set()));
  }
  const decided = new Map([...chosenFindings, ...withoutSharedFinds(looked)].map((finding) => [finding.op.resource.urn, finding]));
  return pendingCreates(state).map((op) => decided.get(op.resource.urn)!);
}
