/**
 * How the service measures names (of keys, groups and clusters): in characters as people count
 * them, Unicode code points, not UTF-16 units, so a name of 200 emoji is 200 characters on both
 * sides and what a preview accepts the service accepts.
 */
export const MAX_NAME_LENGTH = 255;

export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
