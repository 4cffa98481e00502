/**
 * The repository's `pulumi new` templates (templates/), which `pulumi new <repository>/templates/<name>`
 * fetches online: each names the release's packages at package.json's version, as the release's
 * copies of them do (scripts/dist/templates.cts), and asks for the same settings, the secrets as secrets.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..");
const TEMPLATES = path.join(ROOT, "templates");
const VERSION: string = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
const read = (template: string, file: string) => readFileSync(path.join(TEMPLATES, template, file), "utf8");

/** Each template and the line of its manifest that names the release's package. */
const MANIFESTS: Record<string, { file: string; names: string } | undefined> = {
  "etl-typescript": { file: "package.json", names: `"@pulumi-etl/sdk": "^${VERSION}"` },
  "etl-typescript-dynamic": { file: "package.json", names: `"pulumi-etl": "^${VERSION}"` },
  "etl-python": { file: "requirements.txt", names: `pulumi_etl==${VERSION}` },
  "etl-go": { file: "go.mod", names: `github.com/pulumi-etl/pulumi-etl/sdk/go v${VERSION}` },
  "etl-yaml": undefined,
};

describe("the repository's templates", () => {
  it("are the five templates, one per language and the dynamic resources", () => {
    expect(readdirSync(TEMPLATES).sort()).toEqual(Object.keys(MANIFESTS).sort());
  });

  it.each(Object.entries(MANIFESTS))("%s names the release's package at package.json's version", (template, manifest) => {
    if (manifest) expect(read(template, manifest.file)).toContain(manifest.names);
    else expect(readdirSync(path.join(TEMPLATES, template))).toEqual(["Pulumi.yaml"]);
  });

  it.each(Object.keys(MANIFESTS))(
    "%s asks for the service's address and account with the emulator's defaults, and the key and the password as secrets",
    (template) => {
      const project = read(template, "Pulumi.yaml");
      /** The lines of one setting under `template: config:`, up to the next setting. */
      const setting = (key: string) => new RegExp(`^    ${key}:\\n((?:      .*\\n)+)`, "m").exec(project)?.[1] ?? "";
      expect(project).toMatch(/^name: \$\{PROJECT\}$/m);
      expect(project).toMatch(/^template:\n {2}displayName: .+\n {2}description: .+\n {2}config:\n/m);
      expect(setting("etl:apiUrl")).toMatch(/^ {6}default: http:\/\/127\.0\.0\.1:4010$/m);
      expect(setting("etl:accountId")).toMatch(/^ {6}default: acme-data$/m);
      for (const secret of ["etl:apiKey", "warehousePassword"]) {
        expect(setting(secret)).toMatch(/^ {6}secret: true$/m);
        expect(setting(secret)).not.toMatch(/default:/);
      }
    },
  );
});
