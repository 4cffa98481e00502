/**
 * A Python user with only the release folder: the wheel installed with pip into a new virtual
 * environment (pulumi itself from PyPI), the plugin from the release's archive, no Node.js on
 * PATH; and the same user with no plugin installed at all, whose `pulumi up` fetches it from the
 * address the wheel carries (pointed at a loopback server of the release folder).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installReleaseWheel, newUserMachine, pluginArchive, RELEASE_DIR, RELEASE_PIP_ENV, releaseFile, VERSION, type UserMachine } from "../support/release";
import { configureProgram, connectionId, describeReleaseLifecycle, serviceConnection, TIMEOUT_MS, writeProgram } from "../support/release-lifecycle";
import { serveFolder, type FolderServer } from "../support/release-server";
import { startLocalService, type LocalService } from "../support/service";

const RUNTIME = "  name: python\n";
const venvPython = (machine: UserMachine) => path.join(machine.dir, "venv", "bin", "python");
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The address the release's SDKs give the engine to fetch the plugin from. */
function releasedPluginDownloadURL(): string {
  return (JSON.parse(readFileSync(releaseFile("schema.json"), "utf8")) as { pluginDownloadURL: string }).pluginDownloadURL;
}

describeReleaseLifecycle("python", {
  runtime: RUNTIME,
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
  },
});

describe("a Python program whose plugin the engine fetches by itself from the address the wheel carries", { timeout: TIMEOUT_MS }, () => {
  const archiveName = path.basename(pluginArchive());
  let service: LocalService;
  let server: FolderServer;
  let machine: UserMachine;

  beforeAll(async () => {
    service = await startLocalService();
    server = await serveFolder(RELEASE_DIR);
    // The wheel's address, exactly, is sent to the loopback server instead.
    const overrides = `^${releasedPluginDownloadURL().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$=${server.url}/`;
    machine = newUserMachine("python-acquisition", { withoutNode: true, automaticPluginAcquisition: true, env: { ...RELEASE_PIP_ENV, PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: overrides } });
    writeProgram(machine, "python", RUNTIME);
    await installReleaseWheel(machine);
    await configureProgram(machine, service, `acquisition-SECRET-${process.pid}`);
  }, TIMEOUT_MS);

  afterAll(async () => {
    machine?.dispose();
    await server?.close();
    await service?.emulator.close();
  });

  it("up with no plugin installed downloads exactly the release's archive, installs its plugin and creates the connection", async () => {
    expect(machine.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION).toBeUndefined();
    const installed = path.join(machine.home, "plugins", `resource-etl-v${VERSION}`, "pulumi-resource-etl");
    expect(existsSync(installed)).toBe(false);

    await machine.pulumi(["up", "--yes"]);

    expect(server.requests.map(({ method, path: served, status }) => ({ method, path: served, status }))).toEqual([{ method: "GET", path: `/${archiveName}`, status: 200 }]);
    const checksums = readFileSync(releaseFile("checksums.txt"), "utf8");
    expect(checksums).toContain(`${server.requests[0]!.sha256}  ${archiveName}\n`);
    const executable = execFileSync("tar", ["-xzOf", pluginArchive(), "pulumi-resource-etl"], { maxBuffer: 512 * 1024 * 1024 });
    expect(sha256(readFileSync(installed))).toBe(sha256(executable));
    expect((await serviceConnection(service, await connectionId(machine))).body).toMatchObject({ name: "warehouse" });
  });

  it("destroy then runs on the fetched plugin without fetching it again", async () => {
    await machine.pulumi(["destroy", "--yes"]);
    expect((await service.state()).accounts[0].connections).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});
