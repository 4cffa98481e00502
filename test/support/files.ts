/** Files a test reads back, such as everything a stack wrote. */
import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";

/** Every file below `dir`. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}
