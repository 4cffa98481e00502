/**
 * For `npm run bench:test-cpu` (bench/test-cpu.mts), which sets ETL_FILE_CPU to a file: appends one
 * line per test file with the CPU its worker spent on it, its own and its reaped children's (the
 * engines, providers, programs and builds a test starts end before the file does), from Linux's
 * `/proc/self/stat`, and its wall time.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, expect } from "vitest";

const TICKS_PER_SECOND = 100;

function cpuSeconds(): { own: number; children: number } {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  const ticks = (index: number) => Number(fields[index]);
  // After the command's name: utime, stime, cutime and cstime are the 12th to 15th fields.
  return { own: (ticks(11) + ticks(12)) / TICKS_PER_SECOND, children: (ticks(13) + ticks(14)) / TICKS_PER_SECOND };
}

const report = process.env.ETL_FILE_CPU;
if (report) {
  let start: { own: number; children: number; at: number };
  beforeAll(() => {
    start = { ...cpuSeconds(), at: Date.now() };
  });
  afterAll(() => {
    const end = cpuSeconds();
    const line = { file: expect.getState().testPath, own: end.own - start.own, children: end.children - start.children, wall: (Date.now() - start.at) / 1000 };
    appendFileSync(report, `${JSON.stringify(line)}\n`);
  });
}
