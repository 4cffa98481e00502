/**
 * The project files `etl-export` writes name the released artifacts at the package's version, so
 * the engine runs the plugin of that version; a YAML export is its Pulumi.yaml, whose strings
 * reach the service as the account holds them (`$` is doubled: Pulumi YAML reads `${…}`). The
 * steps it prints after them are shell lines that quote the folder and take every secret from a
 * variable, whatever the account's names hold.
 */
import { describe, expect, it } from "vitest";
import { nextSteps, stackSettingsFile, variableLines } from "../../provider/export/steps";
import { defaultPluginDownloadURL, packageVersion, SDK_NAMES } from "pulumi-etl/plugin";
// The compiled modules, which read the package's version as the installed command does.
import { ConfigValue, exportFiles, FileText, LANGUAGES, ResourceReference, yamlBlock, yamlScalar, type AccountExport, type Language } from "pulumi-etl/plugin";

const VERSION = packageVersion();

const ACCOUNT: AccountExport = {
  objects: [
    {
      kind: "Connection",
      id: "301",
      name: "warehouse",
      variable: "connectionWarehouse",
      inputs: { type: "postgres", name: "warehouse", password: new ConfigValue("connectionWarehousePassword", true) },
    },
    {
      kind: "ConnectionGroup",
      id: "7",
      name: "team",
      variable: "connectionGroupTeam",
      inputs: { name: "team", connections: [new ResourceReference("Connection", "301")] },
    },
    {
      kind: "Package",
      id: "101",
      name: "rollup",
      variable: "packageRollup",
      inputs: { name: "rollup", variables: { since: "${since}", on: "yes" }, dataFlow: new FileText("flows/rollup.json", "{}") },
    },
  ],
  leftOut: [],
  settings: [{ name: "connectionWarehousePassword", object: "Connection 301 (warehouse)", what: "password", secret: true }],
  files: [new FileText("flows/rollup.json", "{}")],
};

const filesIn = (language: Language, surface: "plugin" | "dynamic" = "plugin") =>
  exportFiles(ACCOUNT, { language, surface, project: "etl-acme", accountId: "acme" });

describe("etl-export's project files", () => {
  it("TypeScript: package.json asks for the SDK (or, for the dynamic resources, the package) at this version", () => {
    expect(JSON.parse(filesIn("typescript")["package.json"]!).dependencies[SDK_NAMES.nodejs]).toBe(VERSION);
    expect(JSON.parse(filesIn("typescript", "dynamic")["package.json"]!).dependencies["pulumi-etl"]).toBe(VERSION);
  });

  it("Python: requirements.txt pins the SDK beside pulumi", () => {
    expect(filesIn("python")["requirements.txt"]).toBe(`pulumi>=3.0.0,<4.0.0\n${SDK_NAMES.python}==${VERSION}\n`);
  });

  it("Go: go.mod requires the SDK's module at this version, with no replace", () => {
    const goMod = filesIn("go")["go.mod"]!;
    expect(goMod).toContain(`require github.com/pulumi-etl/pulumi-etl/sdk/go v${VERSION}\n`);
    expect(goMod).not.toContain("replace");
  });

  it("YAML: the program is Pulumi.yaml, and a package declaration names the plugin's version and download address", () => {
    const files = filesIn("yaml");
    expect(Object.keys(files).sort()).toEqual(["Pulumi.yaml", "flows/rollup.json", "import.json", "sdks/etl.yaml"]);
    expect(files["sdks/etl.yaml"]).toBe(`packageDeclarationVersion: 1\nname: etl\nversion: ${VERSION}\ndownloadUrl: ${defaultPluginDownloadURL(VERSION)}\n`);
    const program = files["Pulumi.yaml"]!;
    expect(program).toMatch(
      /^name: etl-acme\n.*\nruntime: yaml\n\nconfig:\n {2}connectionWarehousePassword:\n {4}type: string\n {4}secret: true\nresources:\n/s,
    );
    expect(program).toContain("  connectionWarehouse:\n    type: etl:index:Connection\n    name: warehouse\n");
    expect(program).toContain("      password: ${connectionWarehousePassword}\n    options:\n      protect: true\n");
    expect(program).toContain("      connections:\n        - ${connectionWarehouse.id}\n");
    expect(program).toContain('        since: "$${since}"\n        "on": "yes"\n');
    expect(program).toContain("      dataFlow:\n        fn::readFile: flows/rollup.json\n");
  });

  it("every language writes Pulumi.yaml with its runtime", () => {
    for (const language of LANGUAGES) expect(filesIn(language)["Pulumi.yaml"]).toMatch(/\nruntime: (nodejs|python|go|yaml)\n/);
  });
});

describe("YAML values", () => {
  it("writes simple words plain and quotes what a YAML reader would take for another type", () => {
    expect(["etl:Connection", "db.example.com", "https://x.example.com/a"].map(yamlScalar)).toEqual([
      "etl:Connection",
      "db.example.com",
      "https://x.example.com/a",
    ]);
    expect(["yes", "Off", "null", "2030-01-01", "0x1F", "a b", "", "a: b", "#x"].map(yamlScalar)).toEqual([
      '"yes"',
      '"Off"',
      '"null"',
      '"2030-01-01"',
      '"0x1F"',
      '"a b"',
      '""',
      '"a: b"',
      '"#x"',
    ]);
    expect([12, 1.5, true, null].map(yamlScalar)).toEqual(["12", "1.5", "true", "null"]);
  });

  it("doubles every $, so `${…}` in the account's text is not read as an expression", () => {
    expect(yamlScalar("cost in $ is ${since} or $$")).toBe('"cost in $$ is $${since} or $$$$"');
  });

  it("lays out nested lists and mappings as blocks, empty ones inline", () => {
    const text = yamlBlock({ list: [{ a: 1, b: [] }, [1, 2]], map: {}, "two words": "x" }, "").join("\n");
    expect(text).toBe(["list:", "  - a: 1", "    b: []", "  - - 1", "    - 2", "map: {}", '"two words": x'].join("\n"));
  });
});

describe("etl-export's next steps", () => {
  const settings = [
    { name: "connectionABPassword", object: "Connection 1 (a-b)", what: "password", secret: true },
    { name: "connectionAbPassword", object: "Connection 2 (ab)", what: "password", secret: true },
    { name: "publicKeyDeployKeyLine", object: "PublicKey 3 (deploy\nrm -rf ~)", what: "keyLine", secret: false },
  ];

  it("go into the folder, quoted for the shell, and read every value from a variable of its own", () => {
    expect(nextSteps(settings, { out: "/tmp/it's here", stack: "prod", language: "yaml", surface: "plugin" })).toEqual([
      `cd '/tmp/it'\\''s here'`,
      "pulumi stack init prod",
      'pulumi config set --secret etl:apiKey <<< "${ETL_API_KEY:?is not set}"',
      'pulumi config set --secret connectionABPassword <<< "${CONNECTION_AB_PASSWORD:?is not set}"',
      'pulumi config set --secret connectionAbPassword <<< "${CONNECTION_AB_PASSWORD_2:?is not set}"',
      'pulumi config set publicKeyDeployKeyLine <<< "${PUBLIC_KEY_DEPLOY_KEY_LINE:?is not set}"',
      "pulumi import --file import.json --generate-code=false --yes",
      "pulumi preview",
    ]);
  });

  it("install what each language's project names, and on the dynamic resources adopt with up instead of an import", () => {
    const installs = LANGUAGES.map((language) => nextSteps([], { out: "/x", stack: "s", language, surface: "plugin" }).at(-3));
    expect(installs).toEqual([
      "npm install",
      "pip install -r requirements.txt",
      "go mod tidy",
      'pulumi config set --secret etl:apiKey <<< "${ETL_API_KEY:?is not set}"',
    ]);
    expect(nextSteps([], { out: "/x", stack: "s", language: "typescript", surface: "dynamic" }).slice(-3)).toEqual([
      "npm install",
      "pulumi preview",
      "pulumi up",
    ]);
  });

  it("list each variable with its object on one line, whatever the object's name holds", () => {
    expect(variableLines(settings).slice(1)).toEqual([
      "  CONNECTION_AB_PASSWORD:      password of Connection 1 (a-b), a secret",
      "  CONNECTION_AB_PASSWORD_2:    password of Connection 2 (ab), a secret",
      "  PUBLIC_KEY_DEPLOY_KEY_LINE:  keyLine of PublicKey 3 (deploy rm -rf ~)",
    ]);
  });

  it("write the stack's settings as strings", () => {
    expect(stackSettingsFile({ "etl:apiUrl": "https://api.example.com", "etl:accountId": "007" })).toBe(
      'config:\n  etl:apiUrl: "https://api.example.com"\n  etl:accountId: "007"\n',
    );
  });
});
