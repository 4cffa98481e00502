import { expect } from "vitest";
import type * as pulumi from "@pulumi/pulumi";

/**
 * The failure a check must report for the input at `path` (dotted): its reason starts with the
 * input's name and says the rule. It names the property too, which makes the engine print the
 * value, only when the value is harmless to print (a number, a boolean, nothing); a string or an
 * object could be a secret.
 */
export function expectedFailure(given: Record<string, unknown>, path: string, rule: string): pulumi.dynamic.CheckFailure {
  const value = path.split(".").reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], given);
  const printable = value === undefined || value === null || typeof value === "number" || typeof value === "boolean";
  // A nested input is named by the reason alone: the engine would print its value as `{<nil>}`.
  return {
    property: printable && !path.includes(".") ? path : "",
    reason: expect.stringMatching(new RegExp(`^(?=${escapeRegExp(path)} )[\\s\\S]*${escapeRegExp(rule)}`)),
  };
}

/** The first words of each failure's reason: the inputs named, in order. */
export function namedInputs(failures: pulumi.dynamic.CheckFailure[]): string[] {
  return failures.map((f) => f.reason.split(" ")[0]!);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
