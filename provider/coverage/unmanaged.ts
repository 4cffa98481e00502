/**
 * `etl-export --unmanaged --stack NAME... --state FILE...`: the export holds only the objects no
 * stack holds, so a team adopts what was set up by hand into a stack of its own. References to
 * objects a stack manages stay their ids in the program.
 */
import { UsageError } from "../command-line";
import type { ResourceKind } from "../resources/registry";
import { readStates, STATE_FLAGS, withStackAccounts } from "./sources";
import { claimsOf, type AccountAddress } from "./states";

export const UNMANAGED_FLAGS = {
  unmanaged: { type: "boolean", default: false },
  ...STATE_FLAGS,
} as const;

type UnmanagedFlags = { unmanaged?: boolean; stack?: string[]; state?: string[] };

/** Whether the export keeps an object: unless `--unmanaged`, every one. */
export async function unmanagedFilter(
  flags: UnmanagedFlags,
  account: AccountAddress,
  progress: (message: string) => void,
): Promise<((object: { kind: ResourceKind; id: string }) => boolean) | undefined> {
  const named = (flags.stack ?? []).length + (flags.state ?? []).length;
  if (!flags.unmanaged) {
    if (named > 0) throw new UsageError("--stack and --state name the stacks whose objects --unmanaged leaves out: give --unmanaged too");
    return undefined;
  }
  if (named === 0) throw new UsageError("--unmanaged needs the stacks whose objects it leaves out: give --stack NAME or --state FILE, once for each stack");
  const held = new Set<string>();
  for (const state of withStackAccounts(await readStates(flags.stack ?? [], flags.state ?? []), account)) {
    for (const claim of claimsOf(state, account, undefined).claims) held.add(`${claim.kind}:${claim.id}`);
  }
  progress(`--unmanaged: ${held.size} objects the stacks hold are left out`);
  return (object) => !held.has(`${object.kind}:${object.id}`);
}
