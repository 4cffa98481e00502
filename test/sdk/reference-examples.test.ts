/**
 * The reference pages' examples (every resource and function, and those a kind's notes add) and the provider's overview's
 * (docs/_index.md) are programs each SDK takes: the Go ones compile against sdk/go (`go vet`), the Python ones parse, the
 * TypeScript ones type-check against the package; the YAML ones parse, and every type, function, property and argument they
 * name is the schema's (test/sdk/yaml-examples.ts).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { referencePages } from "pulumi-etl/plugin";
import { parseYaml, schemaProblems } from "./yaml-examples";
import { goProgramEnv } from "../support/go-flags.mts";

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const WORK = path.join(REPO_ROOT, "test", ".work");

const FENCE = "```";

/** The overview page names the TypeScript fence as the Pulumi Registry does, and imports the plugin's SDK, whose classes and arguments are the package's. */
function overviewPage(): [string, string] {
  const text = readFileSync(path.join(REPO_ROOT, "docs", "_index.md"), "utf8");
  // Named "overview": Go leaves out of ./... a folder whose name starts with "_".
  return ["overview.md", text.replaceAll(`${FENCE}typescript\n`, `${FENCE}ts\n`).replaceAll('"@pulumi-etl/sdk"', '"pulumi-etl"')];
}

/** Each fenced example of a language on the pages of resources and functions and on the overview, named by page and place. */
function examplesIn(fence: string): Array<[string, string]> {
  const pattern = new RegExp(`${FENCE}${fence}\\n([\\s\\S]*?)\\n${FENCE}`, "g");
  return [...referencePages(), overviewPage()].flatMap(([page, text]) =>
    [...text.matchAll(pattern)].map((match, index): [string, string] => [`${path.basename(page, ".md")}${index === 0 ? "" : `-${index + 1}`}`, match[1]!]),
  );
}

function failureOf(run: () => unknown): string {
  try {
    run();
    return "";
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: Buffer; stderr?: Buffer; message: string };
    return `${message}\n${stdout?.toString() ?? ""}${stderr?.toString() ?? ""}`;
  }
}

describe("the reference pages' examples", () => {
  mkdirSync(WORK, { recursive: true });
  const scratch = mkdtempSync(path.join(WORK, "reference-examples-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("in Go compile against the Go SDK", { timeout: 600_000 }, () => {
    const module = path.join(scratch, "go");
    const examples = examplesIn("go");
    expect(examples.length).toBeGreaterThanOrEqual(33);
    for (const [kind, source] of examples) {
      mkdirSync(path.join(module, kind), { recursive: true });
      writeFileSync(path.join(module, kind, "main.go"), source);
    }
    const quickstart = path.join(REPO_ROOT, "examples", "quickstart-go");
    writeFileSync(
      path.join(module, "go.mod"),
      `module reference-examples\n\ngo 1.25\n\nrequire (\n\tgithub.com/pulumi-etl/pulumi-etl/sdk/go v0.1.0\n\tgithub.com/pulumi/pulumi/sdk/v3 v3.259.0\n)\n\nreplace github.com/pulumi-etl/pulumi-etl/sdk/go => ${path.join(REPO_ROOT, "sdk", "go")}\n`,
    );
    copyFileSync(path.join(quickstart, "go.sum"), path.join(module, "go.sum"));
    const env = { ...process.env, ...goProgramEnv("mod") };
    expect(failureOf(() => execFileSync("go", ["vet", "./..."], { cwd: module, env, stdio: "pipe" }))).toBe("");
  });

  it("in Python parse", () => {
    const examples = examplesIn("python");
    expect(examples.length).toBeGreaterThanOrEqual(33);
    // One interpreter for every example: a start per example costs more than the parsing.
    const parse =
      "import ast, json, sys\nfor name, source in json.load(sys.stdin):\n    try: ast.parse(source)\n    except SyntaxError as error: print(f'{name}: {error}')";
    expect(execFileSync("python3", ["-c", parse], { input: JSON.stringify(examples), stdio: "pipe" }).toString()).toBe("");
  });

  it("in YAML parse, and name only the schema's types, functions, properties and arguments", () => {
    const examples = examplesIn("yaml");
    expect(examples.length).toBeGreaterThanOrEqual(33);
    const programs = parseYaml(examples.map(([, source]) => source));
    const problems = examples.flatMap(([page], index) => schemaProblems(programs[index]).map((problem) => `${page}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it("in YAML: the check names what the schema does not know", () => {
    const [program] = parseYaml([
      [
        "name: wrong",
        "runtime: yaml",
        "variables:",
        "  found:",
        "    fn::invoke: { function: etl:getPackage, arguments: { packageID: 1 } }",
        "resources:",
        '  key: { type: etl:PublicKey, properties: { name: k, publicKeyText: "${missing}" } }',
        "  nightly: { type: etl:Schedule, properties: { interval: { amount: 1, units: days } } }",
        "  other: { type: etl:Cron }",
      ].join("\n"),
    ]);
    expect(schemaProblems(program)).toEqual([
      "key.publicKeyText is not a field the schema declares",
      "nightly.interval.units is not a field the schema declares",
      "other: etl:Cron is not a resource of the schema",
      "etl:getPackage.packageID is not a field the schema declares",
      "${missing} refers to nothing the program declares",
    ]);
  });

  it("in TypeScript type-check against the package", { timeout: 120_000 }, () => {
    const dir = path.join(scratch, "ts");
    mkdirSync(dir, { recursive: true });
    const examples = examplesIn("ts");
    expect(examples.length).toBeGreaterThanOrEqual(33);
    // Each a module of its own: the same names are declared on every page.
    for (const [kind, source] of examples) writeFileSync(path.join(dir, `${kind}.ts`), `${source}\nexport {};\n`);
    const options = [
      "--noEmit",
      "--strict",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--target",
      "es2022",
      "--skipLibCheck",
      "--types",
      "node",
    ];
    const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    expect(
      failureOf(() =>
        execFileSync(process.execPath, [tsc, ...options, ...examples.map(([kind]) => path.join(dir, `${kind}.ts`))], { cwd: dir, stdio: "pipe" }),
      ),
    ).toBe("");
  });
});
