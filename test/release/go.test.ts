/**
 * A Go user with only the release folder: a program whose go.mod requires the SDK by its version,
 * resolved by `go get` through the release's module proxy folder ahead of the machine's usual
 * proxy (GONOSUMDB for the module, which the public checksum database has never seen), no
 * `replace`; the plugin from the release's archive; no Node.js on PATH.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { expect } from "vitest";
import { RELEASE_DIR, releaseFile, VERSION, type UserMachine } from "../support/release";
import { describeReleaseLifecycle } from "../support/release-lifecycle";

const MODULE = "github.com/pulumi-etl/pulumi-etl/sdk/go";
const MODULE_VERSION = `v${VERSION}`;
/** The language tests' Go program: its requirements and go.sum are the Pulumi Go SDK's, already in the module cache. */
const LANGUAGE_PROGRAM = path.join(__dirname, "..", "languages", "programs", "go");
/** Where a module proxy keeps the module's version (its path is all lower case: no escaping). */
const PROXY_VERSION = path.join("goproxy", MODULE, "@v", MODULE_VERSION);

const GO_ENV = {
  GOPROXY: `file://${path.join(RELEASE_DIR, "goproxy")},${execFileSync("go", ["env", "GOPROXY"], { encoding: "utf8" }).trim()}`,
  GONOSUMDB: "github.com/pulumi-etl/*",
  // The flags the Go build cache was warmed with, so the Pulumi Go SDK is not compiled again.
  GOFLAGS: "-mod=readonly -buildvcs=false",
};

/** The module's files in the machine's module cache: where it was extracted, and the download as fetched. */
function cachedModule(machine: UserMachine): { extracted: string; zip: string } {
  const cache = machine.exec("go", ["env", "GOMODCACHE"]).trim();
  return { extracted: path.join(cache, `${MODULE}@${MODULE_VERSION}`), zip: path.join(cache, "cache", "download", MODULE, "@v", `${MODULE_VERSION}.zip`) };
}

/**
 * Go's module cache keeps a version once fetched, and every `npm run dist` makes this version
 * anew: the cached copy goes, so `go get` fetches the release's.
 */
function forgetCachedModule(machine: UserMachine): void {
  const { extracted, zip } = cachedModule(machine);
  // Go leaves what it extracts read-only.
  if (existsSync(extracted)) execFileSync("chmod", ["-R", "u+w", extracted]);
  rmSync(extracted, { recursive: true, force: true });
  for (const suffix of [".info", ".mod", ".zip", ".ziphash", ".lock"]) rmSync(zip.replace(/\.zip$/, suffix), { force: true });
}

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
