import { z } from "zod";
import { characterCount, MAX_NAME_LENGTH } from "../contract/text";
import { BOOLEAN_RULE, readBoolean } from "./booleans";

/**
 * The rules request body schemas are built from, each worded once and after the field's name
 * ("must be ..."): `parseBody` puts the field's path in front, and words zod's own type and
 * choice rules the same way, so a plain `z.string()` or `z.enum(...)` needs no message.
 */

/** A name or similar label, measured in characters as people count them (see `contract/text`). */
export function label() {
  return z
    .string()
    .refine((text) => characterCount(text) <= MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
    .refine((text) => text.trim() !== "", "must not be blank");
}

/** A description, which null clears. */
export function nullableText() {
  return z.string({ error: "must be a string or null" }).nullable();
}

/** Any integer: numbers with a fraction, and numbers written as strings, are refused. */
export function integer() {
  return z.int({ error: "must be an integer" });
}

/** The id of a record the body refers to. */
export function positiveInteger() {
  const rule = "must be a positive integer";
  return z.int({ error: rule }).positive(rule);
}

export function integerBetween(bounds: { min: number; max: number }) {
  const rule = `must be an integer between ${bounds.min} and ${bounds.max}`;
  return z.int({ error: rule }).min(bounds.min, rule).max(bounds.max, rule);
}

/** An object whose values are strings (spec 2.3's variables); each bad value is named by its key. */
export function stringMap() {
  return z.record(z.string(), z.string());
}

/** A boolean in any of the spellings the service's clients send (see `booleans.ts`), read as a real one. */
export function boolean() {
  return z.unknown().transform((value, ctx) => {
    const flag = readBoolean(value);
    if (flag !== undefined) return flag;
    // A JSON body cannot hold undefined: the field was left out where it is required.
    ctx.addIssue({ code: "custom", message: value === undefined ? "is required" : BOOLEAN_RULE });
    return z.NEVER;
  });
}
