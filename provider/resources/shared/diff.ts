/**
 * Diffs from declared rules, with no API call: each input field says how to read its desired
 * value from the checked inputs (defaults applied), its current value from the recorded
 * outputs, and whether a change updates in place or replaces. Comparing effective values, not
 * raw inputs, is what keeps an omitted optional input from showing as a change forever.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isUnknown } from "./check";

export interface FieldRule<Olds, News> {
  desired(news: News): unknown;
  current(olds: Olds): unknown;
  onChange: "update" | "replace";
}

export type FieldRules<Olds, News> = Record<string, FieldRule<Olds, News>>;

export interface DiffOptions {
  /** Delete the old object before creating its replacement (a name that must stay unique). */
  deleteBeforeReplace?: boolean;
}

/** Field names whose desired value differs from the current one, or is not known yet. */
export function changedFields<Olds, News>(rules: FieldRules<Olds, News>, olds: Olds, news: News): string[] {
  return Object.entries(rules)
    .filter(([, rule]) => {
      const desired = rule.desired(news);
      return containsUnknown(desired) || !sameValue(desired, rule.current(olds));
    })
    .map(([name]) => name);
}

/** A diff with what each changed input does: the plugin reports it property by property. */
export interface DetailedDiffResult extends pulumi.dynamic.DiffResult {
  detailed?: Record<string, "update" | "replace">;
}

export function diffByRules<Olds, News>(rules: FieldRules<Olds, News>, olds: Olds, news: News, options: DiffOptions = {}): DetailedDiffResult {
  const changed = changedFields(rules, olds, news);
  const replaces = changed.filter((name) => rules[name]!.onChange === "replace");
  return {
    changes: changed.length > 0,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && (options.deleteBeforeReplace ?? false),
    detailed: Object.fromEntries(changed.map((name) => [name, rules[name]!.onChange])),
  };
}

export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** Structural equality where key order does not matter and undefined equals a missing key. */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) =>
      v !== null && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => x.localeCompare(y)))
        : v,
    ) ?? "undefined"
  );
}
