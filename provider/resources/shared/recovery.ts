/**
 * What `etl-recover` needs of a kind to adopt what a killed deployment made: how to find the
 * object a create of some inputs made since a moment, and whether the next `up` must carry on
 * with it (a cluster still coming up is waited for, as after any interrupted wait).
 */
import type { RequestFn } from "../../client/http";

// biome-ignore lint/suspicious/noExplicitAny: the registry holds every kind's declaration; each kind's own types check its functions
export interface RecoverDeclaration<Inputs = any, Rec extends { id: number } = any> {
  /** What tells the kind's object apart, in words for the report: "its name", "its fingerprint". */
  by: string;
  /**
   * The objects, newest first, a create of `inputs` sent at `since` or later may have made: the
   * kind's own lookup after an unknown outcome, with the window opened at `since`.
   */
  find(request: RequestFn, inputs: Inputs, since: number): Promise<Rec[]>;
  /** Why the next `up` must carry on with the object as refreshed (its wait), or undefined when it is settled. */
  unsettled?(outputs: Record<string, unknown>): string | undefined;
}
