/**
 * The soak's stack: how many resources of each kind it declares and with what arguments, each
 * kind's `soak` in its entry under test/kinds/. The kinds come from the provider's one list, and
 * every kind has an entry, so the stack and the ledger cannot disagree.
 *
 * Every service object the soak makes carries its resource's name: in its `name` (a member's in
 * its email, an account's in its slug), jobs in their `soak_run` variable (with the cycle in
 * `soak_cycle`, since each cycle runs the package anew and earlier runs stay on the service).
 * The user settings are the key's user's, which the service holds before the soak and after it.
 */
import { RESOURCE_KINDS } from "pulumi-etl/plugin";
import { KIND_TESTS, type StackInputs } from "../kinds";
import { freshEd25519Key } from "./keys";
import { declare as declareOn, type Surface } from "./surfaces";

/** Resources the stack declares, all kinds together. */
export const STACK_SIZE = RESOURCE_KINDS.reduce((sum, kind) => sum + KIND_TESTS[kind].soak.count, 0);

export function freshKeys(): string[] {
  return Array.from({ length: KIND_TESTS.PublicKey.soak.count }, (_, i) => freshEd25519Key(`soak-${i}`));
}

export function soakProgram(surface: Surface, inputs: StackInputs) {
  return async () => {
    for (const kind of RESOURCE_KINDS) {
      const { count, name, args } = KIND_TESTS[kind].soak;
      for (let i = 0; i < count; i++) declareOn(surface, kind, name(i), args(i, inputs));
    }
  };
}
