/**
 * The set-up's Go wrapper modules (scripts/engine): each of the others requires every module it
 * shares with the engine's at the engine's version, Pulumi's own apart, so that Go's build cache
 * holds one compile of their packages for every build (scripts/engine/share-versions.sh).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ENGINE = path.resolve(__dirname, "..", "..", "scripts", "engine");
const WRAPPERS = ["language-host", "yaml-host", "codegen"];

/** Each module a go.mod requires, with its version. */
function requirements(wrapper: string): Map<string, string> {
  const text = readFileSync(path.join(ENGINE, wrapper, "go.mod"), "utf8");
  const lines = [...text.matchAll(/^require ([^\s(]+) (v\S+)/gm), ...text.matchAll(/^\t(\S+) (v\S+)/gm)];
  return new Map(lines.map(([, module, version]) => [module!, version!]));
}

describe("the set-up's Go wrapper modules", () => {
  const engine = requirements(".");

  it("read the engine's requirements", () => {
    expect(engine.get("github.com/pulumi/pulumi/pkg/v3")).toMatch(/^v3\./);
    expect(engine.get("google.golang.org/grpc")).toMatch(/^v1\./);
  });

  it.each(WRAPPERS)("%s requires the engine's version of every module both require, Pulumi's own apart", (wrapper) => {
    const differing = [...requirements(wrapper)]
      .filter(([module, version]) => !module.startsWith("github.com/pulumi/") && engine.has(module) && engine.get(module) !== version)
      .map(([module, version]) => `${module} ${version}, the engine's ${engine.get(module)}`);
    expect(differing).toEqual([]);
  });
});
