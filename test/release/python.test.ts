/**
 * A Python user with only the release folder, following the Installation page: a project whose
 * Pulumi.yaml names its virtual environment as `pulumi new python` writes it, the environment made
 * and activated, the wheel installed with pip (pulumi itself from PyPI), the plugin from the
 * release's archive, no Node.js on PATH; then, in the same project once destroyed, the same user
 * with the plugin removed (`pulumi plugin rm`), whose `pulumi up` fetches it from the address the
 * wheel carries, sent by the page's PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES to a loopback server of
 * the release folder as it is.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installReleaseWheel, pluginArchive, RELEASE_DIR, RELEASE_PIP_ENV, releaseFile, VERSION, type UserMachine } from "../support/release";
import { connectionId, describeReleaseLifecycle, serviceConnection, TIMEOUT_MS } from "../support/release-lifecycle";
import { serveFolder, type FolderServer } from "../support/release-server";
import type { Emulator } from "../support/service";

/** Pulumi.yaml's runtime as `pulumi new python` writes it. */
const RUNTIME = "  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n";
/** The Installation page's mirror: any address of the project's releases, sent to one flat folder. */
const MIRRORED = "^https://github\\.com/pulumi-etl/";
const venvPython = (machine: UserMachine) => path.join(machine.dir, "venv", "bin", "python");
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The machine's environment with the virtual environment not active. */
function inactive(machine: UserMachine): Record<string, string | undefined> {
  const venvBin = path.dirname(venvPython(machine));
  return {
    PATH: machine.env
      .PATH!.split(path.delimiter)
      .filter((dir) => dir !== venvBin)
      .join(path.delimiter),
    VIRTUAL_ENV: undefined,
  };
}

/** The address the release's SDKs give the engine to fetch the plugin from. */
function releasedPluginDownloadURL(): string {
  return (JSON.parse(readFileSync(releaseFile("schema.json"), "utf8")) as { pluginDownloadURL: string }).pluginDownloadURL;
}

/** The lifecycle's project and its emulator, kept once destroyed for the plugin's acquisition. */
let kept: { machine: UserMachine; service: Emulator } | undefined;

afterAll(async () => {
  kept?.machine.dispose();
  await kept?.service.emulator.close();
});

describeReleaseLifecycle("python", {
  runtime: RUNTIME,
  keep: (machine, service) => (kept = { machine, service }),
  env: RELEASE_PIP_ENV,
  install: installReleaseWheel,
  installedChecks: {
    "pip installed pulumi_etl from the wheel, carrying the plugin's version and download address": (machine) => {
      const shown = machine.exec(venvPython(machine), ["-m", "pip", "show", "--files", "pulumi_etl"]);
      expect(shown).toMatch(new RegExp(`^Version: ${VERSION.replace(/\./g, "\\.")}$`, "m"));
      const location = /^Location: (.+)$/m.exec(shown)![1]!;
      expect(location.startsWith(path.join(machine.dir, "venv") + path.sep)).toBe(true);
      const plugin = JSON.parse(readFileSync(path.join(location, "pulumi_etl", "pulumi-plugin.json"), "utf8"));
      expect(plugin).toEqual({ resource: true, name: "etl", version: VERSION, server: releasedPluginDownloadURL() });
    },
    "with the environment not active, the language host does not read Pulumi.yaml's virtualenv: the program's python3 has no pulumi": async (machine) => {
      const { code, output } = await machine.pulumi(["preview"], { allowFailure: true, env: inactive(machine) });
      expect(code).not.toBe(0);
      expect(output).toContain("ModuleNotFoundError: No module named 'pulumi'");
    },
  },
  unchangedPreviewEnv: {
    named: "with the environment not active and PULUMI_PYTHON_CMD naming its interpreter",
    env: (machine) => ({ ...inactive(machine), PULUMI_PYTHON_CMD: venvPython(machine) }),
  },
});

describe("a Python program whose plugin the engine fetches by itself from the address the wheel carries", { timeout: TIMEOUT_MS }, () => {
  const archiveName = path.basename(pluginArchive());
  let service: Emulator;
  let server: FolderServer;
  let machine: UserMachine;

  beforeAll(async () => {
    if (kept === undefined) throw new Error("the Python lifecycle left no project to go on in");
    ({ machine, service } = kept);
    server = await serveFolder(RELEASE_DIR);
    expect(releasedPluginDownloadURL(), "the release's plugin address, which the page's override matches").toMatch(new RegExp(MIRRORED));
    await machine.pulumi(["plugin", "rm", "resource", "etl", "--yes"]);
    // Unset, not "false": the engine then fetches a missing plugin from the SDK's download address.
    delete machine.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION;
    machine.env.PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES = `${MIRRORED}=${server.url}/`;
  }, TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
  });

  it("up with no plugin installed downloads exactly the release's archive, installs its plugin and creates the connection", async () => {
    expect(machine.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION).toBeUndefined();
    const installed = path.join(machine.home, "plugins", `resource-etl-v${VERSION}`, "pulumi-resource-etl");
    expect(existsSync(installed)).toBe(false);

    await machine.pulumi(["up", "--yes"]);

    expect(server.requests.map(({ method, path: served, status }) => ({ method, path: served, status }))).toEqual([
      { method: "GET", path: `/${archiveName}`, status: 200 },
    ]);
    const checksums = readFileSync(releaseFile("checksums.txt"), "utf8");
    expect(checksums).toContain(`${server.requests[0]!.sha256}  ${archiveName}\n`);
    const executable = execFileSync("tar", ["-xzOf", pluginArchive(), "pulumi-resource-etl"], { maxBuffer: 512 * 1024 * 1024 });
    expect(sha256(readFileSync(installed))).toBe(sha256(executable));
    // The name the lifecycle's update left in the stack's settings.
    expect((await serviceConnection(service, await connectionId(machine))).body).toMatchObject({ name: "warehouse-renamed" });
  });

  it("destroy then runs on the fetched plugin without fetching it again", async () => {
    await machine.pulumi(["destroy", "--yes"]);
    expect((await service.state()).accounts[0].connections).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});
