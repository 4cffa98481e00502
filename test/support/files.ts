/** Files a test reads back, such as everything a stack wrote. */
import { lstatSync, readdirSync } from "node:fs";
import * as path from "node:path";

/**
 * Every file below `dir`. A link is left out: it points at what was there before (a project's
 * link to the plugin, a user's folder of links to the system's programs, which may loop).
 */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    const stats = lstatSync(full);
    if (stats.isSymbolicLink()) return [];
    return stats.isDirectory() ? filesUnder(full) : [full];
  });
}
