#!/usr/bin/env node
/**
 * `etl-recover [--stack NAME] [--dry-run]`, in a program's folder after a deployment was killed
 * (SIGKILL, a lost CI runner): finds on the service what each interrupted create made, adopts it
 * into the stack's state so the next `pulumi up` makes nothing twice, clears the creates that
 * made nothing, and removes the killed run's lock (also when the killed run created nothing).
 * Each create is looked for where its provider sent it: an explicit provider's settings as the
 * state records them; for default providers and the dynamic resources the stack's `etl:*`
 * settings, then `ETL_*`, with `--api-url` and `--account-id` before both. The API key is never
 * taken on the command line and never printed.
 */
import { SETTINGS } from "../config";
import { COMMON_FLAGS, parseFlags, runCommand, UsageError } from "../command-line";
import { UserFacingError } from "../errors";
import { findObjects, nameOf, type Finding } from "./plan";
import { destinations } from "./accounts";
import { isLive, pulumiCli, type Lock, type Pulumi } from "./pulumi";
import { pendingCreates, type Deployment } from "./state";
import { adopt, type Adoption } from "./adopt";

const USAGE = `usage: etl-recover [--stack NAME] [--dry-run] [--adopt NAME=ID]... [--since TIME] [--api-url URL] [--account-id ID]
Run in the program's folder when no other pulumi runs on the stack. The API key comes from the stack's
etl:apiKey or ETL_API_KEY; --api-url and --account-id fall back to the stack's settings, then ETL_API_URL and ETL_ACCOUNT_ID.`;

const OPTIONS = {
  stack: { type: "string" },
  adopt: { type: "string", multiple: true },
  since: { type: "string" },
  ...COMMON_FLAGS,
} as const;

function parse(argv: string[]) {
  return parseFlags(argv, OPTIONS, "etl:apiKey or ETL_API_KEY");
}

/** `--adopt group=12` (a resource's name or urn, and the id of its object). */
function chosenOf(given: string[]): Map<string, string> {
  return new Map(
    given.map((pair) => {
      const match = /^(.+)=(\d+)$/.exec(pair);
      if (match === null) throw new UsageError(`--adopt must be NAME=ID, a resource's name (or urn) and its object's id, got "${pair}"`);
      return [match[1]!, match[2]!];
    }),
  );
}

function sinceOf(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const at = Date.parse(given);
  if (!Number.isFinite(at)) throw new UsageError(`--since must be a time such as 2026-11-26T10:00:00Z, got "${given}"`);
  return at;
}

/** The stack and project of any urn the state holds (`urn:pulumi:<stack>::<project>::…`), if it holds one. */
function stackAndProject(state: Deployment): { stack: string; project: string } | undefined {
  const urn = [...(state.deployment.pending_operations ?? []).map((op) => op.resource), ...(state.deployment.resources ?? [])][0]?.urn;
  if (urn === undefined) return undefined;
  const [head, project] = urn.split("::");
  return { stack: head!.split(":").pop()!, project: project! };
}

/** The stack's own settings, the flags before them: what its default providers and the dynamic resources use. */
async function stackSettings(pulumi: Pulumi, flags: ReturnType<typeof parse>) {
  const fromFlags: Record<string, string | undefined> = { [SETTINGS.apiUrl.key]: flags["api-url"], [SETTINGS.accountId.key]: flags["account-id"] };
  const stackConfig = await pulumi.config();
  return (key: string) => fromFlags[key] ?? stackConfig[key];
}

const OPERATION_NAMES: Record<string, string> = { updating: "an update", deleting: "a delete", reading: "a read", importing: "an import" };

/** What a killed deployment that created nothing left: its lock, and what it was doing when killed. */
async function releaseLock(pulumi: Pulumi, state: Deployment, locks: Lock[], dryRun: boolean): Promise<void> {
  const interrupted = (state.deployment.pending_operations ?? []).map((op) => `${OPERATION_NAMES[op.type] ?? op.type} of ${nameOf(op.resource.urn)}`);
  const what = interrupted.length === 0 ? "" : ` while it ran ${interrupted.length} operations (${interrupted.join(", ")})`;
  const lockText = locks.map((lock) => `pid ${lock.pid} on ${lock.hostname}, since ${new Date(lock.at).toISOString()}`).join("; ");
  const lines = [`no interrupted creates of ETL resources in the stack; a killed deployment (${lockText}) left its lock${what}`];
  if (dryRun) return void console.log([...lines, "dry run: the lock stays"].join("\n"));
  await pulumi.cancel();
  lines.push("lock removed (pulumi cancel)");
  if (interrupted.length > 0) lines.push("the interrupted updates and deletes may have reached the service: run `pulumi refresh`, then pulumi up");
  else lines.push("next: pulumi up");
  console.log(lines.join("\n"));
}

function findingLine(finding: Finding): string {
  const { urn } = finding.op.resource;
  switch (finding.outcome) {
    case "found":
      return `${urn} → ${finding.kind} ${finding.id} (found ${finding.how})`;
    case "not created":
      return `${urn} → not created: no such ${finding.kind} was made in account ${finding.accountId}; its pending create is cleared`;
    case "ambiguous":
      return (
        `${urn} → ambiguous: ${finding.kind} ${finding.ids.join(", ")} could each be the one it made (or another create's); none is adopted and its pending create stays. ` +
        `Choose with \`etl-recover --adopt ${nameOf(urn)}=<id>\`, or clear it (\`pulumi refresh --clear-pending-creates\`) and set importId: "<id>" on the resource for one \`pulumi up\``
      );
    case "lookup failed":
      return `${urn} → unknown: looking for its ${finding.kind} failed (${finding.reason}); its pending create stays: run etl-recover again`;
  }
}

/**
 * The stack's state. A run killed while the file backend rewrote a state's metadata leaves it
 * broken, and every pulumi command on the stack fails on it: that metadata is removed first (a
 * dry run only says so). The state itself is whole.
 */
async function readableState(pulumi: Pulumi, dryRun: boolean): Promise<Deployment> {
  try {
    return await pulumi.exportState(false);
  } catch (error) {
    const broken = await pulumi.mendMetadata(dryRun);
    if (broken.length === 0) throw error;
    const files = broken.join(", ");
    const what = `a killed run left the metadata of the stack's state (${files}) empty or cut short, and pulumi cannot read the stack`;
    if (dryRun) throw new UserFacingError(`${what}; etl-recover without --dry-run removes it, and the backend writes it again`);
    console.log(`${what}: removed it (the backend writes it again; the state itself is whole)`);
    return pulumi.exportState(false);
  }
}

async function main(argv: string[]): Promise<void> {
  const flags = parse(argv);
  if (flags.help) return void console.log(USAGE);
  const chosen = chosenOf(flags.adopt ?? []);
  const pulumi = pulumiCli(flags.stack);
  const state = await readableState(pulumi, flags["dry-run"] === true);
  const creates = pendingCreates(state);
  const named = stackAndProject(state);
  const locks = named === undefined ? [] : await pulumi.locks(named.project, named.stack);
  const live = locks.filter(isLive);
  if (live.length > 0)
    throw new UserFacingError(`pulumi (pid ${live.map((lock) => lock.pid).join(", ")}) still runs on the stack: wait for it to end, then run etl-recover`);
  if (creates.length === 0 && locks.length > 0) return releaseLock(pulumi, state, locks, flags["dry-run"] === true);
  if (creates.length === 0) return void console.log("no interrupted creates of ETL resources in the stack, and no lock left: nothing to recover");

  const since = sinceOf(flags.since) ?? (locks.length > 0 ? Math.min(...locks.map((lock) => lock.at)) : await pulumi.lastHistoryTime()) ?? 0;
  const plain = await pulumi.exportState(true);
  const findings = await findObjects(destinations(plain, await stackSettings(pulumi, flags)), state, plain, { since, chosen });
  const window = since === 0 ? "any time (the stack records no earlier deployment)" : new Date(since).toISOString();
  const lines = [`${creates.length} interrupted creates; objects made since ${window}:`, ...findings.map((finding) => `  ${findingLine(finding)}`)];
  if (flags["dry-run"]) return void console.log([...lines, "dry run: the state is unchanged"].join("\n"));
  console.log(lines.join("\n"));
  if (locks.length > 0) await pulumi.cancel();
  report(await adopt(pulumi, state, findings));
}

function report(adoption: Adoption): void {
  const lines = [`state updated: ${adoption.adopted} adopted, ${adoption.cleared} cleared, ${adoption.kept} left pending`];
  for (const [urn, reason] of adoption.unsettled) lines.push(`  the next pulumi up carries on with ${nameOf(urn)}: ${reason}`);
  lines.push(adoption.kept > 0 ? "settle the creates left pending as said above before the next pulumi up" : "next: pulumi up");
  console.log(lines.join("\n"));
  if (adoption.kept > 0) process.exitCode = 1;
}

runCommand("etl-recover", USAGE, main);
