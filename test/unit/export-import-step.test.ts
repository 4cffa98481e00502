/**
 * The import a plugin-surface export ends with does not depend on the language: every language's
 * printed step is the same `pulumi import` line, on the same import file. One language's import on
 * the engine (test/languages/account-export.test.ts) stands for them all.
 */
import { describe, expect, it } from "vitest";
import { nextSteps } from "../../provider/export/steps";
import { ConfigValue, exportFiles, LANGUAGES, ResourceReference, type AccountExport } from "pulumi-etl/plugin";

const ACCOUNT: AccountExport = {
  objects: [
    { kind: "Connection", id: "301", name: "warehouse", variable: "connectionWarehouse", inputs: { name: "warehouse", password: new ConfigValue("pw", true) } },
    { kind: "ConnectionGroup", id: "7", name: "team", variable: "connectionGroupTeam", inputs: { connections: [new ResourceReference("Connection", "301")] } },
  ],
  leftOut: [],
  settings: [{ name: "pw", object: "Connection 301 (warehouse)", what: "password", secret: true }],
  files: [],
};

describe("a plugin-surface export's import", () => {
  it("is one step and one import file, whatever the language", () => {
    const steps = LANGUAGES.map((language) =>
      nextSteps(ACCOUNT.settings, { out: "/x", stack: "prod", language, surface: "plugin" }).filter((step) => step.startsWith("pulumi import")),
    );
    expect(steps).toEqual(LANGUAGES.map(() => ["pulumi import --file import.json --generate-code=false --yes"]));
    const files = LANGUAGES.map((language) => exportFiles(ACCOUNT, { language, surface: "plugin", project: "p", accountId: "a" })["import.json"]);
    expect(new Set(files).size).toBe(1);
    expect(JSON.parse(files[0]!).resources).toEqual([
      { type: "etl:index:Connection", name: "warehouse", id: "301" },
      { type: "etl:index:ConnectionGroup", name: "team", id: "7" },
    ]);
  });
});
