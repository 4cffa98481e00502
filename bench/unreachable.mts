/**
 * Time from `pulumi preview` and from `pulumi up` to their error when the settings cannot work,
 * with the default retry settings: a program of one ConnectionGroup (dynamic resources), against
 * an address that refuses connections, one that does not resolve (BENCH_UNREACHABLE_URLS,
 * comma-separated, to choose others), and the local service with a wrong API key. Prints the
 * seconds and the provider's message for each. Run by `npm run bench:unreachable`.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation/index.js";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const WORK_ROOT = path.join(REPO_ROOT, "bench", ".work");
const URLS = (process.env.BENCH_UNREACHABLE_URLS ?? "http://127.0.0.1:1,https://nonexistent.invalid").split(",");
const requireFromRepo = createRequire(path.join(REPO_ROOT, "package.json"));
const PROVIDER_MESSAGE = /could not reach|may or may not|the service refused|not one the API key|error: (POST|GET)/;

interface Settings {
  url: string;
  accountId: string;
  apiKey: string;
}

/** The seconds an operation took to fail, and the provider's line in its error. */
async function timeToError(run: () => Promise<unknown>): Promise<{ seconds: number; message: string }> {
  const started = Date.now();
  try {
    await run();
    return { seconds: (Date.now() - started) / 1000, message: "unexpectedly succeeded" };
  } catch (error) {
    const seconds = (Date.now() - started) / 1000;
    const line = String((error as Error).message)
      .split("\n")
      .find((text) => PROVIDER_MESSAGE.test(text));
    return { seconds, message: line?.replace(/^.*?error: /, "").trim() ?? "(no provider message)" };
  }
}

async function withStack<T>(settings: Settings, use: (stack: Stack) => Promise<T>): Promise<T> {
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
    await stack.setAllConfig({
      "etl:apiUrl": { value: settings.url },
      "etl:accountId": { value: settings.accountId },
      "etl:apiKey": { value: settings.apiKey, secret: true },
    });
    return await use(stack);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

async function report(label: string, settings: Settings): Promise<void> {
  for (const operation of ["preview", "up"] as const) {
    const { seconds, message } = await withStack(settings, (stack) => timeToError(() => (operation === "preview" ? stack.preview() : stack.up())));
    console.log(`${label}: pulumi ${operation} ended after ${seconds.toFixed(1)} s\n  ${message}`);
  }
}

for (const url of URLS) await report(url, { url, accountId: "acme", apiKey: "bench-key" });

const { startEmulator } = requireFromRepo("pulumi-etl/emulator") as typeof import("../emulator/index.js");
const service = await startEmulator({ port: 0 });
try {
  await report(`${service.url} with a wrong API key`, { url: service.url, accountId: service.accounts[0]!.uid, apiKey: "wrong-bench-key" });
} finally {
  await service.close();
}
