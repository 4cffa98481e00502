/**
 * Adoption: Pulumi's `import` cannot reach dynamic resources (the engine reads them without
 * their serialized provider), so every resource takes an `importId` input. `create` then takes
 * over the object with that id instead of making another one, and the id stays the resource's.
 */
import { z } from "zod";
import { unlessUnknown } from "./check";
import { ResourceFailure } from "./failures";

const IMPORT_ID = /^[1-9][0-9]{0,14}$/;

/** The `importId` input of every resource: an existing object's id, as a string or a number. */
export const importIdInput = unlessUnknown(
  z.unknown().transform((value, ctx) => {
    const id = typeof value === "number" ? String(value) : value;
    if (typeof id === "string" && IMPORT_ID.test(id)) return id;
    ctx.addIssue({
      code: "custom",
      message: `must be the id of an existing object, a positive integer such as "42" (a string or a number), got ${JSON.stringify(value)}`,
    });
    return z.NEVER;
  }),
).optional();

export class AdoptionError extends ResourceFailure {
  constructor(kind: string, id: string, reason: string) {
    super(`cannot adopt ${kind} ${id}: ${reason}`);
    this.name = "AdoptionError";
  }
}
