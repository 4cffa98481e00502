/**
 * The reference pages' YAML examples of every resource, put together in one program, pass the
 * YAML host's type check against the plugin's schema and the plugin's own check of each input:
 * a preview plans to make each of them, and sends nothing that writes to the service.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referencePages, RESOURCE_KINDS } from "pulumi-etl/plugin";
import { newWorkDir } from "../support/engine";
import { createProjectStack, type LanguageStack } from "../support/language-project";
import { startTestEmulator, type Emulator } from "../support/service";
import { parseYaml } from "../sdk/yaml-examples";

type Program = { config?: Record<string, unknown>; resources: Record<string, unknown> };

/** Each resource page's YAML example, read as data (strings keep their `${…}` as written). */
function resourceExamples(): Array<[string, Program]> {
  const pages = referencePages();
  const texts = RESOURCE_KINDS.map((kind) => /```yaml\n([\s\S]*?)\n```/.exec(pages.get(`resources/${kind}.md`) ?? "")?.[1] ?? "");
  return parseYaml(texts).map((program, index) => [RESOURCE_KINDS[index]!, program as Program]);
}

/** One program holding every example's resource, as block YAML whose values are JSON (which YAML reads as it is). */
function combinedProgram(examples: Array<[string, Program]>): { text: string; secrets: string[] } {
  const config = Object.assign({}, ...examples.map(([, program]) => program.config ?? {}));
  const resources = Object.fromEntries(examples.map(([kind, program]) => [`example${kind}`, program.resources.example]));
  const text = ["name: etl-reference-examples", "runtime: yaml", `config: ${JSON.stringify(config)}`, `resources: ${JSON.stringify(resources)}`, ""].join("\n");
  return { text, secrets: Object.keys(config) };
}

describe("the reference pages' YAML examples on the real engine", { timeout: 600_000 }, () => {
  let service: Emulator;
  let test: LanguageStack | undefined;

  beforeAll(async () => {
    service = await startTestEmulator();
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("preview plans each resource's example and writes nothing", async () => {
    const examples = resourceExamples();
    expect(examples.map(([kind, program]) => [kind, (program.resources.example as { type: string }).type])).toEqual(
      RESOURCE_KINDS.map((kind) => [kind, `etl:${kind}`]),
    );
    const { text, secrets } = combinedProgram(examples);
    expect(secrets.length).toBeGreaterThan(0);
    const { workDir, backend } = newWorkDir("yaml-reference-examples");
    const dir = path.join(workDir, "project");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "Pulumi.yaml"), text);
    const config = Object.fromEntries(secrets.map((name) => [name, { value: `${name}-value`, secret: true }]));
    test = await createProjectStack("yaml", "etl-reference-examples", { dir, workDir, backend }, service, config);
    await service.resetRequests();
    const preview = await test.stack.preview();
    expect(preview.changeSummary).toEqual({ create: RESOURCE_KINDS.length + 1 });
    expect(await service.writeRequests()).toEqual([]);
  });
});
