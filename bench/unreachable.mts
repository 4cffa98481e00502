/**
 * Seconds from the start of `pulumi preview` and of `pulumi up` to their end when `etl:apiUrl`
 * names a closed port (nothing listens: ECONNREFUSED), per language, run with the `pulumi` CLI as
 * a user runs it (bench/unreachable/projects.mts), default retry settings. Beside them the same
 * preview against the local service, which answers: the engine's, the language host's and the
 * plugin's own start, and the program's run, with no wait for an address. What the closed port
 * adds to that is the provider's wait. Also prints each failure's provider message and how many
 * errors the command printed. BENCH_LANGUAGES (comma-separated, of typescript-dynamic,
 * typescript-plugin, python, yaml, go) chooses the languages; BENCH_UNREACHABLE_URL the address
 * (default a loopback port just closed). Run by `npm run bench:unreachable` after `npm run dist`.
 */
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import * as path from "node:path";
import { LANGUAGES, makeProject, newMachine, newStack, REPO_ROOT, type Language, type Machine, type Run, type Settings } from "./unreachable/projects.mts";

const WORK_ROOT = path.join(REPO_ROOT, "bench", ".work");
const PROVIDER_MESSAGE = /could not reach|the service refused|not one the API key/;
const requireFromRepo = createRequire(path.join(REPO_ROOT, "package.json"));
const { startEmulator } = requireFromRepo("pulumi-etl/emulator") as typeof import("../emulator/index.js");

interface Row {
  language: Language;
  closedPreview: Run;
  closedUp: Run;
  openPreview: Run;
}

/** The provider's line of a failure, and how many `error:` lines the command printed (the engine's summary aside). */
function summary(run: Run): { message: string; errors: number } {
  const lines = run.output.split("\n");
  const line = lines.find((text) => PROVIDER_MESSAGE.test(text));
  const errors = lines.filter((text) => /^\s+error: /.test(text) && !/^\s+error: (update|preview) failed$/.test(text)).length;
  return { message: line?.replace(/^.*?error: /, "").trim() ?? (run.code === 0 ? "(passed)" : "(no provider message)"), errors };
}

async function closedAddress(): Promise<string> {
  if (process.env.BENCH_UNREACHABLE_URL) return process.env.BENCH_UNREACHABLE_URL;
  const gone = await startEmulator({ port: 0 });
  await gone.close();
  return gone.url;
}

async function measure(machine: Machine, language: Language, root: string, closed: Settings, open: Settings): Promise<Row> {
  const project = makeProject(language, root);
  await newStack(machine, project, "closed", closed);
  await newStack(machine, project, "open", open);
  // A first preview warms the page cache and the language's own caches (Python's bytecode), as a second run on a machine would be.
  await machine.pulumi(project, ["preview", "--stack", "open"]);
  const openPreview = await machine.pulumi(project, ["preview", "--stack", "open"]);
  if (openPreview.code !== 0) throw new Error(`${language}: the preview against the local service failed:\n${openPreview.output}`);
  const closedPreview = await machine.pulumi(project, ["preview", "--stack", "closed"]);
  const closedUp = await machine.pulumi(project, ["up", "--yes", "--stack", "closed"]);
  return { language, closedPreview, closedUp, openPreview };
}

function printMessages({ language, closedPreview, closedUp }: Row): void {
  for (const [operation, run] of [
    ["preview", closedPreview],
    ["up", closedUp],
  ] as const) {
    const { message, errors } = summary(run);
    console.log(`${language} ${operation}: ${run.seconds.toFixed(1)} s, exit ${run.code}, ${errors} error(s): ${message}`);
  }
}

function print(rows: Row[], url: string): void {
  const s = (run: Run) => run.seconds.toFixed(1).padStart(6);
  console.log(`\nseconds from the command's start to its end, etl:apiUrl ${url} (closed port), default retry settings`);
  console.log(`${"language".padEnd(20)} preview     up   own start (open service's preview)   provider's wait (preview - own)`);
  for (const { language, closedPreview, closedUp, openPreview } of rows) {
    const wait = (closedPreview.seconds - openPreview.seconds).toFixed(1);
    console.log(`${language.padEnd(20)} ${s(closedPreview)} ${s(closedUp)}   ${s(openPreview)}                               ${wait.padStart(6)}`);
  }
}

const chosen = (process.env.BENCH_LANGUAGES?.split(",") as Language[] | undefined) ?? LANGUAGES;
mkdirSync(WORK_ROOT, { recursive: true });
const root = mkdtempSync(path.join(WORK_ROOT, "unreachable-"));
const service = await startEmulator({ port: 0 });
try {
  const url = await closedAddress();
  const account = service.accounts[0]!;
  const open = { url: service.url, accountId: account.uid, apiKey: account.apiKey };
  const closed = { ...open, url };
  const machine = await newMachine(root);
  const rows: Row[] = [];
  for (const language of chosen) {
    const row = await measure(machine, language, root, closed, open);
    rows.push(row);
    printMessages(row);
    if (process.env.BENCH_VERBOSE) console.log(row.closedPreview.output, row.closedUp.output);
  }
  print(rows, url);
} finally {
  await service.close();
  rmSync(root, { recursive: true, force: true });
}
