/**
 * A project that installs `pulumi-etl` as users do (a copy under its own node_modules), run by the
 * Node.js language host: every operation loads the installed package through the one-line
 * provider in state, and a resource's state stays under 2 KB.
 */
import { readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProjectStack, type TestStack } from "../support/engine";
import { writeProjectWithInstalledPackage } from "../support/installed-package.mts";
import { startTestEmulator, type Emulator } from "../support/service";

const KEY = readFileSync(path.resolve(__dirname, "../../examples/quickstart/deploy_key.pub"), "utf8").trim();
const PROJECT = "etl-installed";

const PROGRAM = `
const etl = require("pulumi-etl");
const key = new etl.PublicKey("deploy", { publicKey: ${JSON.stringify(KEY)}, name: "installed deploy key" });
const group = new etl.ConnectionGroup("warehouses", { name: "installed", connections: [{ id: 301, type: "postgres" }] });
exports.fingerprint = key.fingerprint;
exports.groupId = group.id;
`;

describe("pulumi-etl installed in the project's node_modules", { timeout: 180_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  const projectDir = path.resolve(__dirname, "../.work", `installed-project-${process.pid}`);

  beforeAll(async () => {
    service = await startTestEmulator({ account: { connections: [{ id: 301, name: "warehouse", type: "postgres" }] } });
    writeProjectWithInstalledPackage(projectDir, { "Pulumi.yaml": `name: ${PROJECT}\nruntime: nodejs\nmain: index.js\n`, "index.js": PROGRAM });
    test = await createProjectStack("installed", projectDir, service);
  });

  afterAll(async () => {
    test?.dispose();
    rmSync(projectDir, { recursive: true, force: true });
    await service?.emulator.close();
  });

  const checkpoint = () => {
    const file = path.join(test.workDir, "backend", ".pulumi", "stacks", PROJECT, `${test.stack.name}.json`);
    return JSON.parse(readFileSync(file, "utf8")).checkpoint.latest;
  };

  it("up stores a one-line provider and the program's source position, under 2 KB per resource", async () => {
    const up = await test.stack.up();
    expect(up.outputs.fingerprint!.value).toBe("da:b7:da:4e:f8:9f:e5:a4:e5:50:a8:df:a1:b4:b5:93");

    const resources = checkpoint().resources.filter((r: { type: string }) => r.type.startsWith("pulumi-nodejs:dynamic/etl:"));
    expect(resources.map((r: { type: string }) => r.type).sort()).toEqual(["pulumi-nodejs:dynamic/etl:ConnectionGroup", "pulumi-nodejs:dynamic/etl:PublicKey"]);
    for (const resource of resources) {
      const kind = resource.type.split(":").pop();
      const oneLine = `exports.handler = () => require("pulumi-etl/runtime").providerFor("${kind}");\n`;
      expect(resource.inputs.__provider).toBe(oneLine);
      expect(resource.outputs.__provider).toBe(oneLine);
      expect(resource.sourcePosition).toMatch(/^project:\/\/\/index\.js#\d+,\d+$/);
      expect(JSON.stringify(resource).length).toBeLessThan(2_048);
    }
  });

  it("preview and refresh of the unchanged project find nothing to do and write nothing", async () => {
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true });
    await test.stack.refresh({ expectNoChanges: true });
    expect(await service.writeRequests()).toEqual([]);
  });

  it("destroy removes both objects from the service", async () => {
    await test.stack.destroy();
    const account = (await service.state()).accounts[0];
    expect(account.publicKeys).toEqual([]);
    expect(account.connectionGroups).toEqual([]);
  });
});
