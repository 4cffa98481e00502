/**
 * Writing the findings into the stack: the found objects become resources and every handled
 * pending create goes, then a refresh of the adopted resources reads their outputs through the
 * kind's own `read` (on either surface), then objects not yet settled are marked so the next
 * `up` carries on with them, and the pending creates left to the user are put back.
 */
import { UserFacingError } from "../errors";
import { RESOURCES } from "../resources/registry";
import type { Finding } from "./plan";
import type { Pulumi } from "./pulumi";
import { adoptedResource, kindOfType, withAdopted, withPending, withUnsettled, type Deployment, type StateResource } from "./state";

export interface Adoption {
  adopted: number;
  cleared: number;
  kept: number;
  /** Adopted resources the next `up` carries on with, and why. */
  unsettled: Map<string, string>;
}

/** Why the next `up` carries on with each adopted resource that is not settled, as refreshed. */
function unsettledOf(state: Deployment, urns: Set<string>): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const resource of state.deployment.resources ?? []) {
    const kind = kindOfType(resource.type);
    if (kind === undefined || !urns.has(resource.urn)) continue;
    const reason = RESOURCES[kind].recover.unsettled?.(resource.outputs ?? {});
    if (reason !== undefined) reasons.set(resource.urn, `${kind} ${resource.id} was adopted by etl-recover while ${reason}; this update carries on with it`);
  }
  return reasons;
}

/**
 * A lock this machine cannot read (an S3, Azure or GCS backend, Pulumi Cloud's update still "in
 * progress") shows only when the import meets it: the command runs once no other pulumi runs,
 * so it is the killed run's, cancelled once.
 */
async function importPastLock(pulumi: Pulumi, state: Deployment): Promise<void> {
  try {
    await pulumi.importState(state);
  } catch (error) {
    if (!/currently locked|update is in progress|conflict/i.test((error as Error).message)) throw error;
    await pulumi.cancel();
    await pulumi.importState(state);
  }
}

/** A failed refresh leaves the adopted resources with their inputs for outputs: the user is told to refresh them. */
async function refreshOrSay(pulumi: Pulumi, urns: string[], kept: number): Promise<void> {
  try {
    await pulumi.refresh(urns);
  } catch (error) {
    const lost = kept > 0 ? `; the ${kept} pending creates left to settle were cleared too: adopt their objects with importId` : "";
    throw new UserFacingError(
      `the objects are adopted, but reading them failed (${(error as Error).message}); run \`pulumi refresh ${urns.map((urn) => `--target '${urn}'`).join(" ")}\` before the next pulumi up${lost}`,
    );
  }
}

export async function adopt(pulumi: Pulumi, state: Deployment, findings: Finding[]): Promise<Adoption> {
  const adopted: StateResource[] = findings.flatMap((finding) => (finding.outcome === "found" ? [adoptedResource(finding.kind, finding.op, finding.id)] : []));
  const kept = findings.filter((finding) => finding.outcome === "ambiguous" || finding.outcome === "lookup failed").map((finding) => finding.op);
  // A refresh refuses to run beside pending creates, so every one goes for now and the kept ones come back after it.
  await importPastLock(pulumi, withAdopted(state, adopted, new Set(findings.map((finding) => finding.op.resource.urn))));
  const urns = new Set(adopted.map((resource) => resource.urn));
  if (urns.size > 0) await refreshOrSay(pulumi, [...urns], kept.length);
  const refreshed = await pulumi.exportState(false);
  const unsettled = unsettledOf(refreshed, urns);
  if (unsettled.size > 0 || kept.length > 0) await pulumi.importState(withPending(withUnsettled(refreshed, unsettled), kept));
  return { adopted: adopted.length, cleared: findings.length - adopted.length - kept.length, kept: kept.length, unsettled };
}
