/**
 * `npm run bench:profile`: where the CPU of `up`, `refresh` and `destroy` goes. Makes PROFILE_COUNT
 * (default 300) objects of PROFILE_KIND (default `Package@plugin`; a kind without `@plugin` is one
 * of the dynamic resources), then as many of the kind's own floor (`Floor.<Kind>`: no-op resources
 * with the kind's inputs, returning what the kind returned), each operation run with every
 * Node.js process the engine starts (the provider, the program) writing a CPU profile and the
 * engine (the `pulumi` process) writing a Go one. Prints each process's CPU against the floor's,
 * the top ten functions of the provider and of the engine, and writes a flame graph of each
 * process and operation, and the report, to PROFILE_OUTPUT (default bench/.work/profile).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { LocalWorkspace, Stack } from "@pulumi/pulumi/automation/index.js";
import { flameGraphSvg } from "./profile/flame.mts";
import {
  busyMs,
  busyStacks,
  goPackageOf,
  goProfileStacks,
  nodeProfileStacks,
  placeOfNodeFrame,
  selfTimeBy,
  totalTimeBy,
  type SampledStack,
} from "./profile/stacks.mts";
import { isFloor, measuredKind, ownFloorOf, type Kind } from "./limits/kinds.mts";
import { benchStackName, floorEnv, programConfig, recordOwnFloorOutputs } from "./limits/measure.mts";
import { startBenchService } from "./limits/service.mts";
import { createBenchStack, prepareWorkspace, removeBenchStack, type BenchWorkspace } from "./limits/workspace.mts";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const KIND = measuredKind("PROFILE_KIND", process.env.PROFILE_KIND || "Package@plugin");
const COUNT = Number(process.env.PROFILE_COUNT || "300");
const OUTPUT = path.resolve(process.env.PROFILE_OUTPUT || path.join(REPO_ROOT, "bench", ".work", "profile"));
const EXIT_ON_SIGNAL = path.join(REPO_ROOT, "bench", "profile", "exit-on-signal.cjs");
const PROFILED = ["up", "refresh", "destroy"] as const;
type Profiled = (typeof PROFILED)[number];
/** The processes of one operation: the engine, and the Node.js processes it started, by what they ran. */
const ROLES = ["engine", "provider", "program"] as const;
type Role = (typeof ROLES)[number];
type Profiles = Partial<Record<Role, SampledStack[]>>;

/**
 * What a Node.js process was, from the modules it ran (a profile names only those its samples
 * found, so by the hosts' own, which every sample of the process passes through): the program runs
 * under the Node.js host's `cmd/run`; a provider is the etl plugin, a plugin on @pulumi/pulumi's
 * provider server (the no-op floor's) or the dynamic provider host.
 */
function roleOf(urls: Set<string>): Role | undefined {
  const ran = (marker: string) => [...urls].some((url) => url.includes(marker));
  if (ran("/@pulumi/pulumi/cmd/run/")) return "program";
  if (["/pulumi-etl/dist/provider/plugin/", "/@pulumi/pulumi/provider/", "/@pulumi/pulumi/cmd/dynamic-provider/"].some(ran)) return "provider";
  return undefined;
}

async function runProfiled(workspace: BenchWorkspace, stack: Stack, operation: Profiled, dir: string): Promise<Profiles> {
  const engineRoot = process.env.PULUMI_ETL_ENGINE_ROOT!;
  const env = { ...process.env, ...(stack.workspace as LocalWorkspace).envVars, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} --require ${EXIT_ON_SIGNAL}` };
  const args = [operation, "--yes", "--skip-preview", "--non-interactive", "--stack", stack.name, "--profiling", path.join(dir, "engine")];
  try {
    await promisify(execFile)(path.join(engineRoot, "bin", "pulumi"), args, { cwd: workspace.programDir, env, maxBuffer: 1 << 28 });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`pulumi ${operation} failed:\n${`${stdout}\n${stderr}`.trim().split("\n").slice(-30).join("\n")}`);
  }
  const profiles: Profiles = {};
  const add = (role: Role, stacks: SampledStack[]) => (profiles[role] = [...(profiles[role] ?? []), ...stacks]);
  for (const file of fs.readdirSync(dir)) {
    if (file.endsWith(".cpuprofile")) {
      const { stacks, urls } = nodeProfileStacks(path.join(dir, file));
      const role = roleOf(urls);
      if (role) add(role, stacks);
    } else if (/^engine\.\d+\.cpu$/.test(file)) add("engine", await goProfileStacks(path.join(dir, file)));
  }
  return profiles;
}

/** Each operation's profiles of `count` objects of `kind`, after which its stack is removed. */
async function profileKind(workspace: BenchWorkspace, service: Awaited<ReturnType<typeof startBenchService>>, kind: Kind): Promise<Record<Profiled, Profiles>> {
  const stackName = `profile-${benchStackName(kind, COUNT)}`;
  const stack = await createBenchStack(workspace, stackName, programConfig(kind, COUNT, service), floorEnv(workspace, kind));
  const results = {} as Record<Profiled, Profiles>;
  try {
    for (const operation of PROFILED) {
      // Kept beside the report, for reading with other tools (Chrome's DevTools, `go tool pprof`).
      const dir = path.join(OUTPUT, "raw", `${fileNameOf(kind)}-${operation}`);
      fs.mkdirSync(dir, { recursive: true });
      results[operation] = await runProfiled(workspace, stack, operation, dir);
      if (operation === "up" && !isFloor(kind)) recordOwnFloorOutputs(workspace, stackName, kind, COUNT);
      console.log(`[profile] ${kind} x ${COUNT}: ${operation} profiled`);
    }
  } finally {
    await removeBenchStack(workspace, stack).catch(() => undefined);
  }
  return results;
}

/** `Floor.Package@plugin` → `floor.package-plugin`. */
const fileNameOf = (kind: Kind) => kind.toLowerCase().replace("@", "-");
const seconds = (ms: number) => (ms / 1000).toFixed(2).padStart(7);
const share = (ms: number, total: number) => `${((100 * ms) / total).toFixed(1).padStart(5)} %`;

/** A heading and the first ten of `ranked`, each with its share of the process's busy time. */
function topTenLines(heading: string, ranked: Array<[string, number]>, total: number): string[] {
  return [`  ${heading}`, ...ranked.slice(0, 10).map(([name, ms]) => `  ${seconds(ms)} s ${share(ms, total)}  ${name}`)];
}

function topTen(title: string, stacks: SampledStack[], keyOf?: (leaf: string) => string): string[] {
  const total = busyMs(stacks);
  return topTenLines(`${title} (${(total / 1000).toFixed(2)} s busy):`, selfTimeBy(stacks, keyOf), total);
}

function topTenInclusive(title: string, stacks: SampledStack[], counted: (frame: string) => boolean): string[] {
  return topTenLines(`${title}:`, totalTimeBy(stacks, counted), busyMs(stacks));
}

function report(kind: Kind, kindRuns: Record<Profiled, Profiles>, floorRuns: Record<Profiled, Profiles>): string[] {
  const floor = ownFloorOf(kind);
  const lines = [`${kind} x ${COUNT} against ${floor} x ${COUNT}: CPU seconds busy, and the kind's over its floor per object`, ""];
  lines.push(`${"operation".padEnd(10)}${"process".padEnd(10)}${"kind s".padStart(9)}${"floor s".padStart(9)}${"over, ms/object".padStart(17)}`);
  for (const operation of PROFILED)
    for (const role of ROLES) {
      const mine = busyMs(kindRuns[operation][role] ?? []);
      const theirs = busyMs(floorRuns[operation][role] ?? []);
      // A refresh and a destroy run no program.
      if (mine === 0 && theirs === 0) continue;
      lines.push(
        `${operation.padEnd(10)}${role.padEnd(10)}${seconds(mine).padStart(9)}${seconds(theirs).padStart(9)}${((mine - theirs) / COUNT).toFixed(1).padStart(17)}`,
      );
    }
  for (const operation of PROFILED) {
    const provider = kindRuns[operation].provider ?? [];
    const engine = kindRuns[operation].engine ?? [];
    lines.push("", `${kind} x ${COUNT}, ${operation}: the top ten by own time`);
    lines.push(...topTen("provider, by function", provider), ...topTen("provider, by package or file", provider, placeOfNodeFrame));
    lines.push(...topTenInclusive("provider, its own functions with what they called", provider, (frame) => frame.includes("[pulumi-etl ")));
    lines.push(...topTen("engine, by function", engine), ...topTen("engine, by package", engine, goPackageOf));
  }
  return lines;
}

function writeFlameGraphs(kind: Kind, runs: Record<Profiled, Profiles>): string[] {
  const written: string[] = [];
  for (const operation of PROFILED)
    for (const role of ROLES) {
      const stacks = runs[operation][role];
      if (!stacks?.length) continue;
      const file = path.join(OUTPUT, `flame-${fileNameOf(kind)}-${operation}-${role}.svg`);
      fs.writeFileSync(file, flameGraphSvg(`${kind} x ${COUNT}, ${operation}: ${role} (${(busyMs(stacks) / 1000).toFixed(2)} s busy)`, busyStacks(stacks)));
      written.push(path.basename(file));
    }
  return written;
}

async function main(): Promise<void> {
  if (!Number.isInteger(COUNT) || COUNT < 1) throw new Error(`PROFILE_COUNT must be a whole number of objects, 1 or more, not ${process.env.PROFILE_COUNT}`);
  fs.rmSync(OUTPUT, { recursive: true, force: true });
  fs.mkdirSync(OUTPUT, { recursive: true });
  const workspace = await prepareWorkspace(path.join(REPO_ROOT, "bench", ".work", "profile-workspace"));
  const service = await startBenchService(100);
  try {
    // The kind first: its own floor returns what the kind's first object returned.
    const kindRuns = await profileKind(workspace, service, KIND);
    const floorRuns = await profileKind(workspace, service, ownFloorOf(KIND));
    const lines = report(KIND, kindRuns, floorRuns);
    const graphs = [...writeFlameGraphs(KIND, kindRuns), ...writeFlameGraphs(ownFloorOf(KIND), floorRuns)];
    fs.writeFileSync(path.join(OUTPUT, "profile.txt"), `${lines.join("\n")}\n`);
    console.log(["", ...lines, "", `flame graphs in ${OUTPUT}: ${graphs.join(", ")}`].join("\n"));
  } finally {
    await service.close();
  }
}

main().catch((error: unknown) => {
  console.error(`[profile] ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
