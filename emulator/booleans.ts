/**
 * Booleans as the service's own clients send them (facts: "true, t or 1"): JSON `true`/`false`,
 * the numbers `1`/`0`, and the texts `"1"`/`"0"`, `"t"`/`"f"`, `"true"`/`"false"`. Bodies
 * (`fields.ts`) and query strings (`query.ts`) read them through this one table, so both take
 * the same spellings and refuse the same ones; whatever is taken is stored and answered as a
 * real boolean.
 */

const SPELLINGS: ReadonlyMap<unknown, boolean> = new Map<unknown, boolean>([
  [true, true],
  [false, false],
  [1, true],
  [0, false],
  ["1", true],
  ["0", false],
  ["t", true],
  ["f", false],
  ["true", true],
  ["false", false],
]);

/** The rule a refused value breaks, worded after the field's name. */
export const BOOLEAN_RULE = 'must be a boolean: true or false (1 or 0, "t" or "f" are taken too)';

/** The boolean a value spells, or undefined when it spells none. */
export function readBoolean(value: unknown): boolean | undefined {
  return SPELLINGS.get(value);
}
