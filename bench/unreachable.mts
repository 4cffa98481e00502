/**
 * Time from `pulumi up` to its error when `etl:apiUrl` cannot be reached, with the default retry
 * settings: a program of one ConnectionGroup, against an address that refuses connections and one
 * that does not resolve (BENCH_UNREACHABLE_URLS, comma-separated, to choose others). Prints the
 * seconds and the provider's message for each. Run by `npm run bench:unreachable`.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation/index.js";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const WORK_ROOT = path.join(REPO_ROOT, "bench", ".work");
const URLS = (process.env.BENCH_UNREACHABLE_URLS ?? "http://127.0.0.1:1,https://nonexistent.invalid").split(",");
const requireFromRepo = createRequire(path.join(REPO_ROOT, "package.json"));

async function timeToError(url: string): Promise<{ seconds: number; message: string }> {
  mkdirSync(WORK_ROOT, { recursive: true });
  const workDir = mkdtempSync(path.join(WORK_ROOT, "unreachable-"));
  mkdirSync(path.join(workDir, "backend"));
  const program = async () => {
    const etl = requireFromRepo("pulumi-etl");
    new etl.ConnectionGroup("group", { name: "unreachable-bench", description: "never made" });
  };
  try {
    const stack = await LocalWorkspace.createStack(
      { stackName: "bench", projectName: "etl-unreachable", program },
      { workDir, envVars: { PULUMI_BACKEND_URL: `file://${workDir}/backend` }, projectSettings: { name: "etl-unreachable", runtime: "nodejs" } },
    );
    await stack.setAllConfig({ "etl:apiUrl": { value: url }, "etl:accountId": { value: "acme" }, "etl:apiKey": { value: "bench-key", secret: true } });
    const started = Date.now();
    try {
      await stack.up();
      return { seconds: (Date.now() - started) / 1000, message: "unexpectedly succeeded" };
    } catch (error) {
      const seconds = (Date.now() - started) / 1000;
      const line = String((error as Error).message)
        .split("\n")
        .find((text) => /could not reach|may or may not|error: (POST|GET)/.test(text));
      return { seconds, message: line?.replace(/^.*?error: /, "") ?? "(no provider message)" };
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

for (const url of URLS) {
  const { seconds, message } = await timeToError(url);
  console.log(`${url}: pulumi up ended after ${seconds.toFixed(1)} s\n  ${message}`);
}
