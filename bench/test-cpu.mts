/**
 * `npm run bench:test-cpu [vitest arguments]`: runs the tests (all, or the files given) as `npm test`
 * runs them (`scripts/run.sh test-cpu`, the tests' environment without the lint and the release) and prints each file's CPU, its worker's own and its children's (every engine, provider,
 * program and build the file started), with its wall time, the costliest first. The release's tests
 * need the release built (`npm test` or `node scripts/dist/main.cts` first). Linux only: it reads
 * `/proc/self/stat` (test/support/file-cpu.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

interface FileCpu {
  file: string;
  own: number;
  children: number;
  wall: number;
}

const root = path.resolve(import.meta.dirname, "..");
const scratch = mkdtempSync(path.join(tmpdir(), "etl-test-cpu-"));
const report = path.join(scratch, "files.jsonl");
// The rest of the environment is the tests' own (scripts/run.sh's use_test_environment).
const env = { ...process.env, ETL_FILE_CPU: report };
const run = spawnSync("npx", ["--no-install", "vitest", "run", ...process.argv.slice(2)], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
const files: FileCpu[] = existsSync(report)
  ? readFileSync(report, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as FileCpu)
  : [];
rmSync(scratch, { recursive: true, force: true });

const seconds = (value: number) => value.toFixed(1).padStart(8);
files.sort((a, b) => b.own + b.children - (a.own + a.children));
console.log(`${"CPU s".padStart(8)}${"own".padStart(8)}${"children".padStart(10)}${"wall s".padStart(8)}  file`);
for (const { file, own, children, wall } of files)
  console.log(`${seconds(own + children)}${seconds(own)}${seconds(children).padStart(10)}${seconds(wall)}  ${path.relative(root, file)}`);
const total = (pick: (file: FileCpu) => number) => files.reduce((sum, file) => sum + pick(file), 0);
console.log(
  `${seconds(total((f) => f.own + f.children))}${seconds(total((f) => f.own))}${seconds(total((f) => f.children)).padStart(10)}${seconds(total((f) => f.wall))}  ${files.length} files`,
);
process.exitCode = run.status ?? 1;
