/**
 * The set-up's Go wrapper modules (scripts/engine): each of the others requires every module it
 * shares with the engine's at the engine's version, Pulumi's own apart, so that Go's build cache
 * holds one compile of their packages for every build (scripts/engine/share-versions.sh).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ENGINE = path.resolve(__dirname, "..", "..", "scripts", "engine");
/** Each wrapper module but the engine's: each folder of scripts/engine with a go.mod. */
const WRAPPERS = readdirSync(ENGINE).filter((name) => existsSync(path.join(ENGINE, name, "go.mod")));

/** Each module a go.mod requires, with its version. */
function requirements(wrapper: string): Map<string, string> {
  const text = readFileSync(path.join(ENGINE, wrapper, "go.mod"), "utf8");
  const lines = [...text.matchAll(/^require ([^\s(]+) (v\S+)/gm), ...text.matchAll(/^\t(\S+) (v\S+)/gm)];
  return new Map(lines.map(([, module, version]) => [module!, version!]));
}

describe("the set-up's Go wrapper modules", () => {
  const engine = requirements(".");

  it("are the language hosts', the YAML host's and the SDK generator's, and read the engine's requirements", () => {
    expect([...WRAPPERS].sort()).toEqual(["codegen", "language-host", "yaml-host"]);
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
