/**
 * CPU profiles as call stacks with the time spent in each: Node.js's `.cpuprofile` (the provider
 * and the program) and Go's pprof profile (the engine, which runs in the `pulumi` process), read
 * through `go tool pprof -traces`. Both become the same shape, so one report and one flame graph
 * serve both.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";

/** One sampled call stack, outermost frame first, and the milliseconds its samples stand for. */
export interface SampledStack {
  frames: string[];
  ms: number;
}

/** Where a Node.js process waited (Go's profiler samples only time on a CPU): left out of "busy" time and of the top ten. */
export const IDLE_FRAMES = new Set(["(idle)"]);

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber?: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * The module each line of a bundle came from: esbuild writes `// <path>` above each module it puts
 * in (`// node_modules/google-protobuf/google-protobuf.js`), so a frame in the plugin's one file
 * is told apart by its line, not lumped as "bundle.js".
 */
const bundleModules = new Map<string, Array<{ line: number; module: string }>>();
function bundledModuleAt(url: string, line: number): string | undefined {
  let modules = bundleModules.get(url);
  if (!modules) {
    modules = fs
      .readFileSync(new URL(url), "utf8")
      .split("\n")
      .flatMap((text, at) => {
        const marker = /^\/\/ (\S+\.(?:c?js|json))$/.exec(text);
        return marker ? [{ line: at, module: marker[1]! }] : [];
      });
    bundleModules.set(url, modules);
  }
  let found: string | undefined;
  for (const { line: start, module } of modules) {
    if (start > line) break;
    found = module;
  }
  return found;
}

/** Where a function of a Node.js process lives, coarsely: the package and, for the provider's and the SDK's own code, the file. */
export function nodePlaceOf({ functionName, url, lineNumber }: CallFrame): string {
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("file:") && url.endsWith("/bundle.js") && lineNumber !== undefined) {
    const module = bundledModuleAt(url, lineNumber);
    if (module !== undefined) return nodePlaceOf({ functionName, url: `file:///${module.startsWith("dist/") ? `pulumi-etl/${module}` : module}` });
  }
  const inPackage = (name: string) => url.includes(`/node_modules/${name}/`);
  const after = (marker: string) => url.slice(url.lastIndexOf(marker) + marker.length);
  if (url.includes("/pulumi-etl/dist/")) return `pulumi-etl ${after("/pulumi-etl/dist/")}`;
  if (inPackage("@pulumi/pulumi")) return `@pulumi/pulumi ${after("/@pulumi/pulumi/")}`;
  if (inPackage("@grpc/grpc-js")) return "@grpc/grpc-js";
  if (inPackage("google-protobuf")) return "google-protobuf";
  if (url.startsWith("node:")) return "Node.js built-ins";
  if (url.startsWith("wasm:")) return "WebAssembly";
  const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  return match ? match[1]! : path.basename(url);
}

/** `name [place]`, or for the engine's own entries (`(garbage collector)`, `(idle)`) the entry alone. */
function nodeFrameName(frame: CallFrame): string {
  if (frame.url === "" && frame.functionName.startsWith("(")) return frame.functionName;
  return `${frame.functionName || "(anonymous)"} [${nodePlaceOf(frame)}]`;
}

/** The place a Node.js frame's name carries: `f [@grpc/grpc-js]` → `@grpc/grpc-js`. */
export function placeOfNodeFrame(frame: string): string {
  const at = frame.lastIndexOf(" [");
  return at === -1 || !frame.endsWith("]") ? frame : frame.slice(at + 2, -1);
}

/** A Node.js CPU profile's stacks, and the scripts it ran (which say what the process was). */
export function nodeProfileStacks(file: string): { stacks: SampledStack[]; urls: Set<string> } {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const framesOf = new Map<number, string[]>();
  const pathTo = (id: number): string[] => {
    const known = framesOf.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    const parent = parentOf.get(id);
    const frames = parent === undefined ? [] : [...pathTo(parent), nodeFrameName(node.callFrame)];
    framesOf.set(id, frames);
    return frames;
  };
  const msById = new Map<number, number>();
  for (const [index, id] of profile.samples.entries()) msById.set(id, (msById.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  const stacks = [...msById.entries()].map(([id, ms]) => ({ frames: pathTo(id), ms })).filter((stack) => stack.frames.length > 0);
  return { stacks, urls: new Set(profile.nodes.map((node) => node.callFrame.url).filter((url) => url !== "")) };
}

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60000 };

/** The stacks of `go tool pprof -traces` output: blocks between dashed lines, the sample's value and leaf first, then its callers. */
export function parseGoTraces(text: string): SampledStack[] {
  const stacks: SampledStack[] = [];
  for (const block of text.split(/^-+\+-+$/m).slice(1)) {
    const lines = block.split("\n").filter((line) => line.trim() !== "");
    const head = /^\s*([\d.]+)(ns|us|µs|ms|s|m)\s+(\S.*)$/.exec(lines[0] ?? "");
    if (!head) continue;
    const leafFirst = [head[3]!, ...lines.slice(1).map((line) => line.trim())].filter((frame) => !frame.startsWith("bytes:"));
    stacks.push({ frames: leafFirst.map((frame) => frame.replace(/ \(inline\)$/, "")).reverse(), ms: Number(head[1]) * UNIT_MS[head[2]!]! });
  }
  return stacks;
}

/** A Go CPU profile's stacks, read with the Go toolchain's own pprof (which the engine's build needs anyway). */
export async function goProfileStacks(file: string): Promise<SampledStack[]> {
  const { stdout } = await promisify(execFile)("go", ["tool", "pprof", "-traces", file], { maxBuffer: 1 << 30 });
  return parseGoTraces(stdout);
}

/** The package of a Go function's full name: `github.com/a/b.(*T).M` → `github.com/a/b`. */
export function goPackageOf(name: string): string {
  const lastSlash = name.lastIndexOf("/");
  const dot = name.indexOf(".", lastSlash + 1);
  return dot === -1 ? name : name.slice(0, dot);
}

/** The stacks where the process ran code (a Node.js process's idle samples left out). */
export function busyStacks(stacks: SampledStack[]): SampledStack[] {
  return stacks.filter((stack) => !IDLE_FRAMES.has(stack.frames.at(-1)!));
}

export function busyMs(stacks: SampledStack[]): number {
  return busyStacks(stacks).reduce((sum, stack) => sum + stack.ms, 0);
}

/** Milliseconds by a key of each stack's innermost frame (the function itself, or its package), largest first, idle left out. */
export function selfTimeBy(stacks: SampledStack[], keyOf: (leaf: string) => string = (leaf) => leaf): Array<[string, number]> {
  const totals = new Map<string, number>();
  for (const stack of stacks) {
    const leaf = stack.frames.at(-1)!;
    if (IDLE_FRAMES.has(leaf)) continue;
    totals.set(keyOf(leaf), (totals.get(keyOf(leaf)) ?? 0) + stack.ms);
  }
  return [...totals.entries()].sort((a, b) => b[1] - a[1]);
}

/** Milliseconds spent in each frame `counted` takes, what it called included (a frame on a stack twice counts once), largest first, idle left out. */
export function totalTimeBy(stacks: SampledStack[], counted: (frame: string) => boolean): Array<[string, number]> {
  const totals = new Map<string, number>();
  for (const stack of stacks) {
    if (IDLE_FRAMES.has(stack.frames.at(-1)!)) continue;
    for (const frame of new Set(stack.frames.filter(counted))) totals.set(frame, (totals.get(frame) ?? 0) + stack.ms);
  }
  return [...totals.entries()].sort((a, b) => b[1] - a[1]);
}
