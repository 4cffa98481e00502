/**
 * A run of `npm run bench` written again from its measurements, with the tables and targets as
 * the code now makes them: `node bench/render.mts <folder holding bench-results.json>`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { writeRun, type BenchRun } from "./limits/write.mts";

const folder = process.argv[2];
if (folder === undefined || !fs.existsSync(path.join(folder, "bench-results.json"))) {
  console.error("usage: node bench/render.mts <folder holding a run's bench-results.json>");
  process.exit(2);
}
const run = JSON.parse(fs.readFileSync(path.join(folder, "bench-results.json"), "utf8")) as BenchRun;
for (const file of writeRun(folder, run)) console.error(`[bench] wrote ${file}`);
