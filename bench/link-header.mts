/**
 * How long the provider's `Link` parser takes on headers built to make a backtracking parser
 * stall: milliseconds per header of 100,000 characters, the median of a few runs each. Reads the
 * compiled package (`npm run build` first; `npm run bench:link-header` does).
 */
import { createRequire } from "node:module";
import { PATHOLOGICAL_LINK_HEADERS } from "./link-header-cases.mts";

const require = createRequire(import.meta.url);
const { parseLinkHeader } = require("../dist/provider/client/pagination.js") as { parseLinkHeader: (header: string) => unknown[] };
const RUNS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

for (const [name, header] of PATHOLOGICAL_LINK_HEADERS) {
  parseLinkHeader(header); // warm-up: the timing is the parser's, not the compiler's
  const times = Array.from({ length: RUNS }, () => {
    const started = performance.now();
    parseLinkHeader(header);
    return performance.now() - started;
  });
  console.log(`${name.padEnd(32)} ${String(header.length).padStart(7)} chars  ${median(times).toFixed(2).padStart(8)} ms (median of ${RUNS})`);
}
