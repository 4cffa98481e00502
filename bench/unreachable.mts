/**
 * Seconds from the start of `pulumi preview` and of `pulumi up` to their end when `etl:apiUrl`
 * names a closed port (nothing listens: ECONNREFUSED) and when it names a host that does not
 * exist (ENOTFOUND), per language, run with the `pulumi` CLI as a user runs it
 * (bench/unreachable/projects.mts), default retry settings. Beside them the same
 * preview against the emulator, which answers: the engine's, the language host's and the
 * plugin's own start, and the program's run, with no wait for an address. What the closed port
 * adds to that is the provider's wait. Also prints each failure's provider message and how many
 * errors the command printed. BENCH_LANGUAGES (comma-separated, of typescript-dynamic,
 * typescript-plugin, python, yaml, go) chooses the languages; BENCH_UNREACHABLE_URL one address
 * instead of the two (a loopback port just closed, https://nonexistent.invalid). Run by
 * `npm run bench:unreachable` after `npm run dist`.
 */
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import * as path from "node:path";
import { LANGUAGES, makeProject, newMachine, newStack, REPO_ROOT, type Language, type Machine, type Run, type Settings } from "./unreachable/projects.mts";

const WORK_ROOT = path.join(REPO_ROOT, "bench", ".work");
const PROVIDER_MESSAGE = /could not reach|the service refused|not one the API key/;
const requireFromRepo = createRequire(path.join(REPO_ROOT, "package.json"));
const { startEmulator } = requireFromRepo("pulumi-etl/emulator") as typeof import("../emulator/index.js");

interface Address {
  /** How the table names it, and the stack's name. */
  name: string;
  url: string;
}

interface Row {
  language: Language;
  address: Address;
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

async function addresses(): Promise<Address[]> {
  if (process.env.BENCH_UNREACHABLE_URL) return [{ name: "chosen", url: process.env.BENCH_UNREACHABLE_URL }];
  const gone = await startEmulator({ port: 0 });
  await gone.close();
  return [
    { name: "closed-port", url: gone.url },
    { name: "no-such-host", url: "https://nonexistent.invalid" },
  ];
}

async function measure(machine: Machine, language: Language, root: string, unreachable: Address[], open: Settings): Promise<Row[]> {
  const project = makeProject(language, root);
  await newStack(machine, project, "open", open);
  for (const address of unreachable) await newStack(machine, project, address.name, { ...open, url: address.url });
  // A first preview warms the page cache and the language's own caches (Python's bytecode), as a second run on a machine would be.
  await machine.pulumi(project, ["preview", "--stack", "open"]);
  const openPreview = await machine.pulumi(project, ["preview", "--stack", "open"]);
  if (openPreview.code !== 0) throw new Error(`${language}: the preview against the emulator failed:\n${openPreview.output}`);
  const rows: Row[] = [];
  for (const address of unreachable) {
    const closedPreview = await machine.pulumi(project, ["preview", "--stack", address.name]);
    const closedUp = await machine.pulumi(project, ["up", "--yes", "--stack", address.name]);
    rows.push({ language, address, closedPreview, closedUp, openPreview });
  }
  return rows;
}

function printMessages({ language, address, closedPreview, closedUp }: Row): void {
  for (const [operation, run] of [
    ["preview", closedPreview],
    ["up", closedUp],
  ] as const) {
    const { message, errors } = summary(run);
    console.log(`${language} ${address.name} ${operation}: ${run.seconds.toFixed(1)} s, exit ${run.code}, ${errors} error(s): ${message}`);
  }
}

function print(rows: Row[]): void {
  const s = (run: Run) => run.seconds.toFixed(1).padStart(6);
  console.log("\nseconds from the command's start to its end, default retry settings");
  for (const { name, url } of new Map(rows.map((row) => [row.address.name, row.address])).values()) console.log(`  ${name}: etl:apiUrl ${url}`);
  console.log(`${"language".padEnd(20)} ${"address".padEnd(13)} preview     up   own start (open service's preview)   provider's wait (preview - own)`);
  for (const { language, address, closedPreview, closedUp, openPreview } of rows) {
    const wait = (closedPreview.seconds - openPreview.seconds).toFixed(1);
    console.log(
      `${language.padEnd(20)} ${address.name.padEnd(13)} ${s(closedPreview)} ${s(closedUp)}   ${s(openPreview)}                               ${wait.padStart(6)}`,
    );
  }
}

const chosen = (process.env.BENCH_LANGUAGES?.split(",") as Language[] | undefined) ?? LANGUAGES;
mkdirSync(WORK_ROOT, { recursive: true });
const root = mkdtempSync(path.join(WORK_ROOT, "unreachable-"));
const service = await startEmulator({ port: 0 });
try {
  const unreachable = await addresses();
  const account = service.accounts[0]!;
  const open = { url: service.url, accountId: account.uid, apiKey: account.apiKey };
  const machine = await newMachine(root);
  const rows: Row[] = [];
  for (const language of chosen) {
    for (const row of await measure(machine, language, root, unreachable, open)) {
      rows.push(row);
      printMessages(row);
      if (process.env.BENCH_VERBOSE) console.log(row.closedPreview.output, row.closedUp.output);
    }
  }
  print(rows);
} finally {
  await service.close();
  rmSync(root, { recursive: true, force: true });
}
