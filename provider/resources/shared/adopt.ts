/**
 * Adoption: Pulumi's `import` cannot reach dynamic resources (the engine reads them without
 * their serialized provider), so every kind the service makes on request takes an `importId`
 * input (UserSettings and ClusterWatcher take none: their create takes the one existing object
 * over anyway). `create` then takes over the object with that id instead of making another one,
 * and the id stays the resource's.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { takes } from "./field-types";
import { describeGiven, ID_INPUT_TYPE, ID_TEXT } from "./check";
import { EtlApiError, NotFoundError, ValidationError } from "../../client/errors";
import { AlreadyInAccount, ResourceFailure } from "./failures";

/** The `importId` input of every kind that takes one: an existing object's id, as a string or a number. */
export const importIdField = {
  program: takes<pulumi.Input<string | number>>(),
  input: z
    .unknown()
    .meta(ID_INPUT_TYPE)
    .transform((value, ctx) => {
      const id = typeof value === "number" ? String(value) : value;
      if (typeof id === "string" && ID_TEXT.test(id)) return id;
      ctx.addIssue({
        code: "custom",
        message: `must be the id of an existing object, a positive integer such as "42" (a string or a number), got ${describeGiven(value)}`,
      });
      return z.NEVER;
    }),
} as const;

export class AdoptionError extends ResourceFailure {
  constructor(kind: string, id: string, reason: string) {
    super(`cannot adopt ${kind} ${id}: ${reason}`);
    this.name = "AdoptionError";
  }
}

/** The object an `importId` names, or the failure saying there is none. */
export async function objectToAdopt<T>(kind: string, importId: string, get: () => Promise<T>): Promise<T> {
  try {
    return await get();
  } catch (error) {
    if (error instanceof NotFoundError) throw new AdoptionError(kind, importId, `no ${kind} ${importId} in this account`);
    throw error;
  }
}

/**
 * Brings an object being adopted to the inputs. The service refusing the change means nothing
 * was changed and nothing is kept, so the next `up` tries the adoption afresh.
 */
export async function adoptionChange<T>(kind: string, importId: string, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof EtlApiError) throw new AdoptionError(kind, importId, error.message);
    throw error;
  }
}

/** The service's 422 for a unique value already in use (a group's name, a key). */
function isAlreadyTaken(error: unknown): boolean {
  return error instanceof ValidationError && /already been taken/i.test(error.serviceMessage);
}

export interface InTheWay {
  /** "connection group", "public key". */
  kind: string;
  /** Which one: `named "x"`, `with fingerprint …`. */
  which: string;
  /** The objects that hold the value; a failing lookup only leaves the id out of the message. */
  holders: () => Promise<Array<{ id: number }>>;
  /** What to do when it is not this resource's: "choose another name". */
  otherwise: string;
}

/** Passes on any failure but "already taken", which becomes the failure naming the object in the way. */
export async function orInTheWay(error: unknown, inTheWay: InTheWay): Promise<never> {
  if (!isAlreadyTaken(error)) throw error;
  const [holder] = await inTheWay.holders().catch(() => []);
  throw alreadyExists(inTheWay.kind, inTheWay.which, holder?.id, inTheWay.otherwise);
}

/**
 * An object this stack does not manage is in the way of a create. It is never taken over
 * unasked: nothing proves it was made for this stack rather than by another stack or a person,
 * so the message names it and says how to adopt it when it is this resource's.
 */
function alreadyExists(kind: string, which: string, existingId: number | undefined, otherwise: string): ResourceFailure {
  const where = existingId === undefined ? "" : ` as ${kind} ${existingId}`;
  const adopt =
    existingId === undefined
      ? "find its id in the account, set importId to it on this resource, run `pulumi up`, then remove importId"
      : `set importId: "${existingId}" on this resource, run \`pulumi up\`, then remove importId`;
  return new AlreadyInAccount(
    `a ${kind} ${which} already exists${where}`,
    "this stack's state does not have it (an interrupted deployment may have made it, or another stack, or a person). " +
      `If it is this resource's, adopt it: ${adopt}. Otherwise ${otherwise}.`,
  );
}
