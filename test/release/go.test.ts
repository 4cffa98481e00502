/**
 * A Go user with only the release folder: the language lifecycle's Go program (its main.go alone)
 * and the Installation page's commands, `go mod init`, `go get` of the SDK by its version and
 * `go mod tidy`, resolved through the release's module proxy folder ahead of the machine's usual
 * proxy (GONOSUMDB for the module, which the public checksum database has never seen), no
 * `replace`; the program built once with `go build -o` and named by Pulumi.yaml's
 * `runtime.options.binary`, as that page offers, so no operation builds it again; the plugin from
 * the release's archive; no Node.js on the CLI's PATH.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { expect } from "vitest";
import { describeLanguageLifecycle } from "../support/language-lifecycle";
import { cachedModule, findsOnPath, GO_MODULE, releaseFile, VERSION, type UserMachine } from "../support/release";
import { createReleaseStack, GO_PROGRAM_BINARY } from "../support/release-project";

const MODULE = GO_MODULE;
const MODULE_VERSION = `v${VERSION}`;
/** Where a module proxy keeps the module's version (its path is all lower case: no escaping). */
const PROXY_VERSION = path.join("goproxy", MODULE, "@v", MODULE_VERSION);

let machine: UserMachine;

describeLanguageLifecycle("go", {
  createStack: async (language, service, config) => {
    const made = await createReleaseStack(language, service, config);
    machine = made.machine;
    return made;
  },
  installed: "go mod init, go get and go mod tidy from the release's module proxy folder and the plugin archive of the release, with no Node.js on PATH",
  installedChecks: {
    "the CLI's PATH finds no node, and the plugin is the release's archive, installed": async () => {
      expect(findsOnPath("node", machine.env.PATH)).toBe(false);
      const plugins = JSON.parse((await machine.pulumi(["plugin", "ls", "--json"])).output) as Array<{ name: string; kind: string; version: string }>;
      expect(plugins.map(({ name, kind, version }) => ({ name, kind, version }))).toEqual([{ name: "etl", kind: "resource", version: VERSION }]);
    },
    "go get resolved the SDK by its version from the release's proxy folder, go mod tidy added Pulumi's Go SDK: no replace, the checksums in go.sum, the release's zip in the module cache":
      () => {
        const goMod = readFileSync(path.join(machine.dir, "go.mod"), "utf8");
        expect(goMod).toContain(`${MODULE} ${MODULE_VERSION}`);
        expect(goMod).toMatch(/^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 v3\.\d+\.\d+$/m);
        expect(goMod).not.toMatch(/^replace /m);
        const listed = JSON.parse(machine.exec("go", ["list", "-m", "-json", MODULE])) as { Version: string; Dir: string; Replace?: unknown };
        expect(listed).toMatchObject({ Version: MODULE_VERSION, Dir: cachedModule(machine).extracted });
        expect(listed.Replace).toBeUndefined();
        const sums = readFileSync(path.join(machine.dir, "go.sum"), "utf8");
        expect(sums).toMatch(new RegExp(`^${MODULE} ${MODULE_VERSION} h1:\\S+=$`, "m"));
        expect(sums).toMatch(new RegExp(`^${MODULE} ${MODULE_VERSION}/go.mod h1:\\S+=$`, "m"));
        expect(readFileSync(cachedModule(machine).zip).equals(readFileSync(releaseFile(`${PROXY_VERSION}.zip`)))).toBe(true);
      },
    "Pulumi.yaml names the program go build made, an executable of the release's SDK at its version": () => {
      expect(readFileSync(path.join(machine.dir, "Pulumi.yaml"), "utf8")).toMatch(new RegExp(`^ {4}binary: \\./${GO_PROGRAM_BINARY}$`, "m"));
      const built = machine.exec("go", ["version", "-m", GO_PROGRAM_BINARY]);
      expect(built).toMatch(new RegExp(`^\\s+dep\\s+${MODULE.replace(/\./g, "\\.")}\\s+${MODULE_VERSION.replace(/\./g, "\\.")}\\s`, "m"));
    },
  },
});
