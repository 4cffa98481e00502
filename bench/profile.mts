/**
 * `npm run bench:profile`: where the time of a refresh goes. Makes PROFILE_COUNT objects of
 * PROFILE_KIND (default 1000 PublicKey; `Package@plugin` through the plugin) and as many of its
 * surface's floor's no-op resources, refreshes
 * each stack with Node.js's CPU profiler on in every Node.js process the engine starts (the
 * provider, the floor's too), and prints each process's CPU time by where it was spent: the
 * provider's own code, @pulumi/pulumi, gRPC, Node.js itself, the garbage collector, idle.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation/index.js";
import { createBenchStack, prepareWorkspace, removeBenchStack } from "./limits/workspace.mts";
import { startBenchService } from "./limits/service.mts";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const KIND = process.env.PROFILE_KIND || "PublicKey";
const COUNT = Number(process.env.PROFILE_COUNT || "1000");
/** PROFILE_FLOOR_SHAPE=1: the floor's no-op resources carry the kind's inputs, so the engine's own cost of those properties is the floor's too. */
const FLOOR_SHAPE = process.env.PROFILE_FLOOR_SHAPE === "1" ? KIND.replace(/@plugin$/, "") : undefined;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives, coarsely: the package and, for the provider's and the SDK's own code, the file. */
function placeOf({ functionName, url }: ProfileNode["callFrame"]): string {
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)";
  const inPackage = (name: string) => url.includes(`/node_modules/${name}/`);
  const after = (marker: string) => url.slice(url.lastIndexOf(marker) + marker.length);
  if (url.includes("/pulumi-etl/dist/")) return `pulumi-etl ${after("/pulumi-etl/dist/")}`;
  if (inPackage("@pulumi/pulumi")) return `@pulumi/pulumi ${after("/@pulumi/pulumi/")}`;
  if (inPackage("@grpc/grpc-js")) return "@grpc/grpc-js";
  if (inPackage("google-protobuf")) return "google-protobuf";
  if (url.startsWith("node:")) return "Node.js built-ins";
  const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  return match ? match[1]! : path.basename(url);
}

function summarize(file: string): { totalMs: number; places: Array<[string, number]> } {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const places = new Map(profile.nodes.map((node) => [node.id, placeOf(node.callFrame)]));
  const byPlace = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const place = places.get(id) ?? "(unknown)";
    byPlace.set(place, (byPlace.get(place) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  const totalMs = [...byPlace.values()].reduce((sum, ms) => sum + ms, 0);
  return { totalMs, places: [...byPlace.entries()].sort((a, b) => b[1] - a[1]) };
}

function report(title: string, dir: string, seconds: number): void {
  console.log(`\n${title}: refresh ${seconds.toFixed(1)} s`);
  // Node.js names a profile CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile. A process
  // the engine ends with SIGKILL writes none; one that lived a moment is left out.
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"))) {
    const { totalMs, places } = summarize(path.join(dir, file));
    if (totalMs < 100) continue;
    const busyMs = totalMs - (places.find(([place]) => place === "(idle)")?.[1] ?? 0);
    console.log(`  process ${file.split(".")[3]}: ${(totalMs / 1000).toFixed(1)} s profiled, ${(busyMs / 1000).toFixed(1)} s busy`);
    for (const [place, ms] of places.slice(0, 12))
      console.log(`    ${(ms / 1000).toFixed(2).padStart(7)} s  ${((100 * ms) / totalMs).toFixed(1).padStart(5)} %  ${place}`);
  }
}

async function main(): Promise<void> {
  const workspace = await prepareWorkspace(path.join(REPO_ROOT, "bench", ".work", "profile"));
  const service = await startBenchService(100);
  try {
    // A kind through the plugin is profiled beside the no-op plugin's floor, a dynamic one beside the no-op dynamic resources.
    for (const kind of [KIND.endsWith("@plugin") ? "Floor@plugin" : "Floor", KIND]) {
      const stack = await createBenchStack(workspace, `profile-${kind.toLowerCase().replace("@", "-")}`, {
        ...service.stackConfig,
        "bench:kind": { value: kind },
        "bench:count": { value: String(COUNT) },
        ...(FLOOR_SHAPE === undefined || kind === KIND ? {} : { "bench:floorShape": { value: FLOOR_SHAPE } }),
      });
      try {
        await stack.up();
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "etl-profile-"));
        const env = (stack.workspace as LocalWorkspace).envVars;
        env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${dir}`;
        const started = performance.now();
        await stack.refresh();
        const seconds = (performance.now() - started) / 1000;
        delete env.NODE_OPTIONS;
        report(`${kind} x ${COUNT}`, dir, seconds);
        await stack.destroy();
      } finally {
        await removeBenchStack(workspace, stack).catch(() => undefined);
      }
    }
  } finally {
    await service.close();
  }
}

main().catch((error: unknown) => {
  console.error(`[profile] ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
