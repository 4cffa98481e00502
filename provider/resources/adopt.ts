/**
 * Adoption: Pulumi's `import` cannot reach dynamic resources (the engine reads them without
 * their serialized provider), so every resource takes an `importId` input. `create` then takes
 * over the object with that id instead of making another one, and the id stays the resource's.
 */
import { z } from "zod";
import { ResourceFailure } from "./failures";

/** An existing object's id, as the service's URLs show it. */
export const importIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,14}$/, "must be the id of an existing object, a positive integer such as \"42\"")
  .optional();

export class AdoptionError extends ResourceFailure {
  constructor(kind: string, id: string, reason: string) {
    super(`cannot adopt ${kind} ${id}: ${reason}`);
    this.name = "AdoptionError";
  }
}
