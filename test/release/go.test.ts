/**
 * A Go user with only the release folder: a program whose go.mod requires the SDK by its version,
 * resolved by `go get` through the release's module proxy folder ahead of the machine's usual
 * proxy (GONOSUMDB for the module, which the public checksum database has never seen), no
 * `replace`; the plugin from the release's archive; no Node.js on PATH.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { expect } from "vitest";
import { cachedModule, GO_MODULE, forgetCachedModule, goReleaseEnv, releaseFile, VERSION, type UserMachine } from "../support/release";
import { describeReleaseLifecycle } from "../support/release-lifecycle";

const MODULE = GO_MODULE;
const MODULE_VERSION = `v${VERSION}`;
/** The language tests' Go program: its requirements and go.sum are the Pulumi Go SDK's, already in the module cache. */
const LANGUAGE_PROGRAM = path.join(__dirname, "..", "languages", "programs", "go");
/** Where a module proxy keeps the module's version (its path is all lower case: no escaping). */
const PROXY_VERSION = path.join("goproxy", MODULE, "@v", MODULE_VERSION);

const GO_ENV = goReleaseEnv();

/** go.mod requiring the SDK by version, with no `replace`, and go.sum for the Pulumi Go SDK; then `go get`. */
function install(machine: UserMachine): void {
  const requirements = readFileSync(path.join(LANGUAGE_PROGRAM, "go.mod"), "utf8")
    .split("\n")
    .filter((line) => !line.startsWith("replace ") && !line.startsWith("//"))
    .join("\n")
    .replace(/^module .*$/m, "module etl-release-go");
  writeFileSync(path.join(machine.dir, "go.mod"), requirements);
  writeFileSync(path.join(machine.dir, "go.sum"), readFileSync(path.join(LANGUAGE_PROGRAM, "go.sum")));
  forgetCachedModule(machine);
  machine.exec("go", ["get", `${MODULE}@${MODULE_VERSION}`], { GOFLAGS: "-buildvcs=false" });
}

describeReleaseLifecycle("go", {
  runtime: "  name: go\n",
  env: GO_ENV,
  install,
  installedChecks: {
    "go get resolved the SDK by its version from the release's proxy folder: no replace, its checksums in go.sum, the release's zip in the module cache": (machine) => {
      const goMod = readFileSync(path.join(machine.dir, "go.mod"), "utf8");
      expect(goMod).toContain(`${MODULE} ${MODULE_VERSION}`);
      expect(goMod).not.toMatch(/^replace /m);
      const listed = JSON.parse(machine.exec("go", ["list", "-m", "-json", MODULE])) as { Version: string; Dir: string; Replace?: unknown };
      expect(listed).toMatchObject({ Version: MODULE_VERSION, Dir: cachedModule(machine).extracted });
      expect(listed.Replace).toBeUndefined();
      const sums = readFileSync(path.join(machine.dir, "go.sum"), "utf8");
      expect(sums).toMatch(new RegExp(`^${MODULE} ${MODULE_VERSION} h1:\\S+=$`, "m"));
      expect(sums).toMatch(new RegExp(`^${MODULE} ${MODULE_VERSION}/go.mod h1:\\S+=$`, "m"));
      expect(readFileSync(cachedModule(machine).zip).equals(readFileSync(releaseFile(`${PROXY_VERSION}.zip`)))).toBe(true);
    },
  },
});
