/** The profile benchmark's reading of CPU profiles (Node.js's and Go's) into stacks, its top tens and its flame graph. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { flameGraphSvg } from "../../bench/profile/flame.mts";
import { busyMs, goPackageOf, nodeProfileStacks, parseGoTraces, placeOfNodeFrame, selfTimeBy, totalTimeBy } from "../../bench/profile/stacks.mts";

const GO_TRACES = `File: pulumi
Type: cpu
Duration: 2s, Total samples = 60ms ( 3.00%)
-----------+-------------------------------------------------------
      30ms   google.golang.org/protobuf/internal/impl.(*MessageInfo).marshal
             github.com/pulumi/pulumi/pkg/v3/resource/deploy.(*stepExecutor).executeStep (inline)
             main.main
-----------+-------------------------------------------------------
      20ms   runtime.mallocgc
             github.com/pulumi/pulumi/pkg/v3/resource/deploy.(*stepExecutor).executeStep
             main.main
-----------+-------------------------------------------------------
      1.2s   runtime._ExternalCode
-----------+-------------------------------------------------------
`;

describe("Go profiles", () => {
  it("read each trace as a stack, outermost first, inline marks dropped, in milliseconds", () => {
    const stacks = parseGoTraces(GO_TRACES);
    expect(stacks).toEqual([
      {
        frames: [
          "main.main",
          "github.com/pulumi/pulumi/pkg/v3/resource/deploy.(*stepExecutor).executeStep",
          "google.golang.org/protobuf/internal/impl.(*MessageInfo).marshal",
        ],
        ms: 30,
      },
      { frames: ["main.main", "github.com/pulumi/pulumi/pkg/v3/resource/deploy.(*stepExecutor).executeStep", "runtime.mallocgc"], ms: 20 },
      { frames: ["runtime._ExternalCode"], ms: 1200 },
    ]);
    expect(busyMs(stacks)).toBe(1250);
    expect(selfTimeBy(stacks, goPackageOf)).toEqual([
      ["runtime", 1220],
      ["google.golang.org/protobuf/internal/impl", 30],
    ]);
  });

  it("count a frame's time with what it called, once per stack however often it recurs", () => {
    const stacks = parseGoTraces(GO_TRACES);
    expect(totalTimeBy(stacks, (frame) => frame.startsWith("main.") || frame.includes("deploy."))).toEqual([
      ["main.main", 50],
      ["github.com/pulumi/pulumi/pkg/v3/resource/deploy.(*stepExecutor).executeStep", 50],
    ]);
    expect(totalTimeBy([{ frames: ["f", "g", "f"], ms: 5 }], () => true)).toEqual([
      ["f", 5],
      ["g", 5],
    ]);
  });

  it("name a function's package, methods and closures included", () => {
    expect(goPackageOf("github.com/pulumi/pulumi/sdk/v3/go/common/resource.(*PropertyMap).Copy")).toBe("github.com/pulumi/pulumi/sdk/v3/go/common/resource");
    expect(goPackageOf("encoding/json.Marshal.func1")).toBe("encoding/json");
    expect(goPackageOf("runtime.memmove")).toBe("runtime");
  });
});

describe("Node.js profiles", () => {
  it("walk each sample to the root, name each frame with its place, and sum the samples of a node", () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: "(root)", url: "" }, children: [2, 4] },
        { id: 2, callFrame: { functionName: "create", url: "file:///p/node_modules/pulumi-etl/dist/provider/plugin/server.js" }, children: [3] },
        { id: 3, callFrame: { functionName: "serializeBinary", url: "file:///p/node_modules/google-protobuf/google-protobuf.js" } },
        { id: 4, callFrame: { functionName: "(idle)", url: "" } },
      ],
      samples: [3, 3, 2, 4],
      timeDeltas: [1000, 1000, 500, 7000],
    };
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-profile-")), "CPU.cpuprofile");
    fs.writeFileSync(file, JSON.stringify(profile));
    const { stacks, urls } = nodeProfileStacks(file);
    expect(stacks).toEqual([
      { frames: ["create [pulumi-etl provider/plugin/server.js]", "serializeBinary [google-protobuf]"], ms: 2 },
      { frames: ["create [pulumi-etl provider/plugin/server.js]"], ms: 0.5 },
      { frames: ["(idle)"], ms: 7 },
    ]);
    expect(urls.has("file:///p/node_modules/google-protobuf/google-protobuf.js")).toBe(true);
    expect(busyMs(stacks)).toBe(2.5);
    expect(selfTimeBy(stacks, placeOfNodeFrame)).toEqual([
      ["google-protobuf", 2],
      ["pulumi-etl provider/plugin/server.js", 0.5],
    ]);
  });

  it("tell the modules of a bundle apart by the line a frame is on, from esbuild's marker above each module", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-profile-"));
    const bundle = path.join(dir, "node_modules", "pulumi-etl", "dist", "provider", "plugin", "bundle.js");
    fs.mkdirSync(path.dirname(bundle), { recursive: true });
    fs.writeFileSync(
      bundle,
      ["// node_modules/google-protobuf/google-protobuf.js", "function mb() {}", "", "// dist/provider/plugin/server.js", "function serve() {}"].join("\n"),
    );
    const url = `file://${bundle}`;
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: "(root)", url: "" }, children: [2] },
        { id: 2, callFrame: { functionName: "serve", url, lineNumber: 4 }, children: [3] },
        { id: 3, callFrame: { functionName: "mb", url, lineNumber: 1 } },
      ],
      samples: [3],
      timeDeltas: [1000],
    };
    const file = path.join(dir, "CPU.cpuprofile");
    fs.writeFileSync(file, JSON.stringify(profile));
    expect(nodeProfileStacks(file).stacks).toEqual([{ frames: ["serve [pulumi-etl provider/plugin/server.js]", "mb [google-protobuf]"], ms: 1 }]);
  });
});

describe("the flame graph", () => {
  it("draws a frame as wide as its share, callees above their callers, and titles each with its time", () => {
    const svg = flameGraphSvg("up", [
      { frames: ["main", "encode"], ms: 75 },
      { frames: ["main", "store"], ms: 25 },
    ]);
    const widthOf = (name: string) => Number(new RegExp(`<title>${name}: [^<]*</title><rect x="[\\d.]+" y="(\\d+)" width="([\\d.]+)"`).exec(svg)?.[2]);
    const rowOf = (name: string) => Number(new RegExp(`<title>${name}: [^<]*</title><rect x="[\\d.]+" y="(\\d+)"`).exec(svg)?.[1]);
    expect(svg).toContain("<title>encode: 75 ms, 75.0 %</title>");
    expect(widthOf("main")).toBeCloseTo(1180, 0);
    expect(widthOf("encode") / widthOf("store")).toBeCloseTo(3, 1);
    expect(rowOf("encode")).toBeLessThan(rowOf("main"));
  });

  it("leaves out frames narrower than a pixel", () => {
    const svg = flameGraphSvg("up", [
      { frames: ["main", "busy"], ms: 100000 },
      { frames: ["main", "rare"], ms: 1 },
    ]);
    expect(svg).toContain("<title>busy:");
    expect(svg).not.toContain("<title>rare:");
  });
});
