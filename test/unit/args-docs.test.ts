/**
 * What an editor shows on a program's arguments is what the schema and the reference pages say:
 * each kind's `<Kind>Args`, as the built package declares it, is asked for the documentation of
 * every documented input through TypeScript's own language service (the quick info of a hover).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { packageSchema, RESOURCE_KINDS, typeToken } from "pulumi-etl/plugin";

const ROOT = path.resolve(__dirname, "../..");
const PROBE = path.join(ROOT, "dist", "__args-docs-probe.ts");
// The docs the build collected from the field tables' doc comments, as the package carries them.
const { fieldDocs } = require(path.join(ROOT, "dist", "provider", "plugin", "field-docs.js")) as { fieldDocs(kind: string): Record<string, string> };
const schema = packageSchema() as { resources: Record<string, { inputProperties: Record<string, { description?: string }> }> };

/**
 * The documentation a hover on `args.<input>` shows, for each kind's documented inputs: one probe
 * of every kind's args, asked of one language service (its program is built once for the file).
 */
function hoverDocsOfEveryKind(): Map<string, Record<string, string>> {
  const probes = RESOURCE_KINDS.map((kind, index) => ({ kind, variable: `args${index}`, inputs: Object.keys(fieldDocs(kind)) }));
  const imports = `import type { ${RESOURCE_KINDS.map((kind) => `${kind}Args`).join(", ")} } from "./provider";\n`;
  const text =
    imports +
    probes
      .map(({ kind, variable, inputs }) => `declare const ${variable}: ${kind}Args;\n${inputs.map((input) => `${variable}.${input};`).join("\n")}\n`)
      .join("");
  const options: ts.CompilerOptions = { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [PROBE],
    getScriptVersion: () => "1",
    getScriptSnapshot: (file) => {
      const content = file === PROBE ? text : fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
      return content === undefined ? undefined : ts.ScriptSnapshot.fromString(content);
    },
    getCurrentDirectory: () => ROOT,
    getCompilationSettings: () => options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (file) => file === PROBE || ts.sys.fileExists(file),
    readFile: (file) => (file === PROBE ? text : ts.sys.readFile(file)),
  };
  const service = ts.createLanguageService(host);
  const shownOf = (variable: string, input: string) => {
    const info = service.getQuickInfoAtPosition(PROBE, text.indexOf(`\n${variable}.${input};`) + `\n${variable}.`.length);
    return ts.displayPartsToString(info?.documentation).replace(/\s*\n\s*/g, " ");
  };
  return new Map(probes.map(({ kind, variable, inputs }) => [kind, Object.fromEntries(inputs.map((input) => [input, shownOf(variable, input)]))]));
}

let hovers: Map<string, Record<string, string>> | undefined;
const hoverDocs = (kind: string) => (hovers ??= hoverDocsOfEveryKind()).get(kind);

describe.each(RESOURCE_KINDS)("%sArgs", (kind) => {
  it("shows each input's documentation in an editor as the schema has it", () => {
    const documented = fieldDocs(kind);
    const inputs = Object.keys(documented);
    expect(inputs.length).toBeGreaterThan(0);
    const inSchema = schema.resources[typeToken(kind)]!.inputProperties;
    expect(Object.fromEntries(inputs.map((input) => [input, inSchema[input]?.description]))).toEqual(documented);
    expect(hoverDocs(kind)).toEqual(documented);
  }, 60_000);
});
