/**
 * Shared `check` plumbing: inputs are validated with a zod schema and every problem becomes a
 * check failure naming the input and the rule, so a preview reports them all before any API call.
 * Custom rules in the schemas are worded to follow the input's name ("must be ...").
 */
import type * as pulumi from "@pulumi/pulumi";
import { UNKNOWN_VALUE } from "../../engine-values";
import { z as zod, type z } from "zod";
import { RECORD_ID_TEXT } from "../../../contract/limits";
import { MAX_NAME_LENGTH } from "../../../contract/text";

/** In a preview, inputs that come from outputs not known yet hold this placeholder. */
export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN_VALUE;
}

export type CheckResult<T> = { ok: true; inputs: T } | { ok: false; inputs: Record<string, unknown>; failures: pulumi.dynamic.CheckFailure[] };

/**
 * Runs `schema` on known values only: a value still unknown during a preview passes through
 * unchecked (the update checks it), and diff sees a change.
 */
export function unlessUnknown<S extends z.ZodType>(schema: S) {
  return zod.unknown().transform((value, ctx): z.output<S> => {
    if (isUnknown(value)) return value as z.output<S>;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    // Paths stay relative: the enclosing object prefixes them with the input's name.
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as z.core.$ZodRawIssue);
    return zod.NEVER;
  });
}

/** An object id as text: digits, no leading zero, within a safe integer. */
export const ID_TEXT = RECORD_ID_TEXT;

// biome-ignore lint/suspicious/noControlCharactersInRegex: names control characters on purpose, to refuse them
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/** A name or similar label: 1 to MAX_NAME_LENGTH characters, surrounding spaces ignored, no control characters. */
export function labelText() {
  return zod.string().trim().min(1).max(MAX_NAME_LENGTH).regex(NO_CONTROL_CHARACTERS, "must not contain control characters");
}

/**
 * The id of a service object: a positive integer, given as a number or as digits (a program
 * passes `cluster.id`, which Pulumi makes a string). Checked inputs hold the number.
 */
/** How an id input is typed in the schema and the SDKs: a number, or a string of digits as other resources' ids are. */
export const ID_INPUT_TYPE = { oneOf: [{ type: "integer" }, { type: "string" }] };

export function objectIdInput(example: number) {
  return zod
    .unknown()
    .meta(ID_INPUT_TYPE)
    .transform((value, ctx) => {
      if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value;
      if (typeof value === "string" && ID_TEXT.test(value)) return Number(value);
      ctx.addIssue({
        code: "custom",
        message: value === undefined ? "is required" : `must be a positive integer, as a number or a string such as "${example}", got ${describeGiven(value)}`,
      });
      return zod.NEVER;
    });
}

/** Drops what the engine adds itself (`__provider`) and inputs left undefined. */
export function userInputs(news: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(news).filter(([name, value]) => !name.startsWith("__") && value !== undefined));
}

/**
 * Set on the inputs an import rebuilds from what the service returns: the inputs it never
 * returns (passwords, a key's line). The engine checks an import's inputs, and their absence
 * there says nothing about the object; a program's inputs never carry the mark.
 */
export const UNREAD_INPUTS = "__unreadInputs";

function unreadInputsOf(news: Record<string, unknown>): Set<string> {
  const marked = news[UNREAD_INPUTS];
  return new Set(Array.isArray(marked) ? marked.filter((name): name is string => typeof name === "string") : []);
}

/** An input that is absent only because the service never returns it. */
function isUnreadAbsence(issue: z.core.$ZodIssue, given: Record<string, unknown>, unread: Set<string>): boolean {
  const name = issue.path.length === 1 ? String(issue.path[0]) : undefined;
  return name !== undefined && unread.has(name) && given[name] === undefined;
}

export function checkWithSchema<S extends z.ZodType>(schema: S, news: Record<string, unknown>): CheckResult<z.output<S>> {
  const given = userInputs(news);
  const parsed = schema.safeParse(given);
  if (parsed.success) return { ok: true, inputs: parsed.data };
  const unread = unreadInputsOf(news);
  const issues = parsed.error.issues.filter((issue) => !isUnreadAbsence(issue, given, unread));
  // With only unread inputs missing, no failure is left and the inputs pass as given.
  return { ok: false, inputs: given, failures: issues.flatMap((issue) => failuresOf(issue, given)) };
}

function failuresOf(issue: z.core.$ZodIssue, given: Record<string, unknown>): pulumi.dynamic.CheckFailure[] {
  const property = issue.path.map(String).join(".");
  // The engine prints the value of the property a failure names, even one the program marked
  // secret; the reason names the input already, so only harmless values are left to print.
  const failure = (path: string, value: unknown, reason: string) => ({ property: printable(value) ? path : "", reason });
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => {
      const value = valueAt(given, [...issue.path, key]);
      return property === ""
        ? failure(key, value, `${key} is not an input of this resource`)
        : failure(`${property}.${key}`, value, `${property}.${key} is not a field of ${property}`);
    });
  }
  const value = valueAt(given, issue.path);
  const reason = `${property || "inputs"} ${ruleOf(issue, value, isLeftOut(issue, given))}`;
  if (issue.path.length <= 1) return [failure(property, value, reason)];
  // The engine finds a failure's value by a top-level name only, and would print a nested one
  // as `{<nil>}`: the reason carries the value given instead, when it is harmless to print.
  const shown = printable(value) && value !== undefined && !/\bgot\b/.test(reason) ? `, got ${describeGiven(value)}` : "";
  return [{ property: "", reason: `${reason}${shown}` }];
}

function printable(value: unknown): boolean {
  return value === undefined || value === null || typeof value === "number" || typeof value === "boolean";
}

/** zod leaves the offending value out of its issues; the inputs still have it. */
function valueAt(given: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key], given);
}

/**
 * Whether the issue is about a field left out of an object that was given: an enumeration's list
 * or a union's forms are no help then. (A flow given as JSON text has no object to look in.)
 */
function isLeftOut(issue: z.core.$ZodIssue, given: unknown): boolean {
  if (issue.path.length === 0 || valueAt(given, issue.path) !== undefined) return false;
  const parent = valueAt(given, issue.path.slice(0, -1));
  return typeof parent === "object" && parent !== null;
}

/** `> n` rules (zod's `positive()`): an id's is "a positive integer", not "at least 0". */
function exclusiveMinimumRule(minimum: number | bigint, value: unknown): string {
  if (Number(minimum) === 0 && (typeof value !== "number" || Number.isInteger(value))) return "must be a positive integer";
  return `must be greater than ${minimum}`;
}

function ruleOf(issue: z.core.$ZodIssue, value: unknown, leftOut: boolean): string {
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return "is required";
      // zod calls an integer `int`; every rule of this provider says "integer".
      if (issue.expected === "int") return typeof value === "number" ? `must be an integer, got ${value}` : `must be an integer, got ${describe(value)}`;
      return `must be ${article(issue.expected)}, got ${describe(value)}`;
    case "too_small":
      if (issue.origin === "string") return `must have at least ${issue.minimum} character(s)`;
      if (issue.origin === "array") return `must have at least ${issue.minimum} item(s)`;
      return issue.inclusive === false ? exclusiveMinimumRule(issue.minimum, value) : `must be at least ${issue.minimum}`;
    case "too_big":
      return issue.origin === "string" ? `must have at most ${issue.maximum} characters` : `must be at most ${issue.maximum}`;
    // A field left out reads as required, nested or not, whatever its rule.
    case "invalid_value":
      return leftOut ? "is required" : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_union":
      return leftOut ? "is required" : issue.message;
    default:
      return issue.message;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return article(typeof value);
}

/**
 * A given value in a check failure: a number as it is, anything else by its type and a string by
 * its length. A dynamic provider cannot tell which inputs the program marked secret, and a
 * secret's value must never reach the CLI's output.
 */
export function describeGiven(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return value.length === 0 ? "an empty string" : `a string of ${value.length} character${value.length === 1 ? "" : "s"}`;
  return describe(value);
}
