/**
 * Argument checks shared by the functions: every problem is reported at once, before any API
 * call, as `<function>: <argument> <rule>`.
 */
import { isOutput } from "../engine-values";
import { z } from "zod";
import { UserFacingError } from "../errors";

export class ArgumentError extends UserFacingError {
  constructor(message: string) {
    super(message);
    this.name = "ArgumentError";
  }
}

/** A value accepted when `convert` gives something for it; otherwise the issue reads `rule`. */
function accepted<T>(rule: string, convert: (value: unknown) => T | undefined) {
  return z.unknown().transform((value, ctx) => {
    const converted = convert(value);
    if (converted !== undefined) return converted;
    ctx.addIssue({ code: "custom", message: rule });
    return z.NEVER;
  });
}

const DIGITS = /^[0-9]+$/;

function toPositiveInteger(value: unknown): number | undefined {
  const number = typeof value === "string" && DIGITS.test(value.trim()) ? Number(value.trim()) : value;
  return typeof number === "number" && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

function toIntegerBetween(min: number, max: number) {
  return (value: unknown): number | undefined => (typeof value === "number" && Number.isInteger(value) && value >= min && value <= max ? value : undefined);
}

/** Record ids: numbers, or strings of digits as a program's outputs give them. */
export const recordId = () => accepted("must be a positive integer", toPositiveInteger);

/** Ids the service writes as strings (invoices); a number is taken as its digits. */
export const stringId = () =>
  accepted("must be a non-empty string", (value) => {
    if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return String(value);
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  });

export const nonBlankText = () => accepted("must be a non-empty string", (value) => (typeof value === "string" && value.trim() !== "" ? value : undefined));

export const pageOffset = () => accepted("must be an integer of at least 0", toIntegerBetween(0, Number.MAX_SAFE_INTEGER));

export const pageLimit = () => accepted("must be an integer from 1 to 100", toIntegerBetween(1, 100));

/** Checks a function's arguments; a missing argument object counts as empty. */
export function parseArguments<S extends z.ZodType>(functionName: string, schema: S, args: unknown): z.output<S> {
  const given = args === undefined ? {} : args;
  const parsed = schema.safeParse(given);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.flatMap((issue) => problemsOf(issue, given, functionName));
  throw new ArgumentError(`${functionName}: ${problems.join("; ")}`);
}

function problemsOf(issue: z.core.$ZodIssue, given: unknown, functionName: string): string[] {
  if (issue.code === "unrecognized_keys") return issue.keys.map((key) => `${key} is not an argument of ${functionName}`);
  if (issue.path.length === 0) return [`expects an object of arguments, got ${describe(given)}`];
  const name = issue.path.map(String).join(".");
  const value = (given as Record<PropertyKey, unknown>)[issue.path[0]!];
  if (value === undefined) return [`${name} is required`];
  if (isOutput(value)) return [`${name} is an Output: call ${functionName} inside apply() to pass its value`];
  return [`${name} ${issue.message}`];
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
