/**
 * The reference pages under docs/reference are what the plugin's schema and the kinds' declarations
 * say (`npm run docs` writes them, and the README's tables of kinds and functions), and every
 * page's example is a valid declaration of its kind.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { classesModuleText, FUNCTIONS, referencePages, withReadmeTables } from "pulumi-etl/plugin";
import { RESOURCE_KINDS, RESOURCES, type ResourceDeclaration } from "../../provider/resources/registry";
import { STDOUT_REPORTER } from "../../provider/progress";
import { isSecretExample } from "../../provider/plugin/reference-examples";

const ROOT = path.resolve(__dirname, "..", "..", "docs", "reference");
const README = path.resolve(__dirname, "..", "..", "README.md");

function committedPages(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? committedPages(path.join(dir, entry.name)) : [path.relative(ROOT, path.join(dir, entry.name)).split(path.sep).join("/")],
  );
}

/** An example's inputs as a program would hand them over: a secret from configuration becomes its value. */
function asGiven(value: unknown): unknown {
  if (isSecretExample(value)) return "a-secret-value";
  if (Array.isArray(value)) return value.map(asGiven);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, asGiven(item)]));
  return value;
}

describe("the reference pages", () => {
  const pages = referencePages();

  it("are committed exactly as the schema makes them (run `npm run docs` after changing a field, a kind or a function)", () => {
    expect(committedPages().sort()).toEqual([...pages.keys()].sort());
    for (const [page, text] of pages) expect(readFileSync(path.join(ROOT, page), "utf8"), `docs/reference/${page}`).toBe(text);
  });

  it("and the classes of the kinds are committed as the registry makes them (run `npm run docs`)", () => {
    expect(readFileSync(path.resolve(__dirname, "..", "..", "provider", "resources", "classes.ts"), "utf8")).toBe(classesModuleText());
  });

  it("and the README's tables are committed as the code makes them (run `npm run docs`)", () => {
    const readme = readFileSync(README, "utf8");
    expect(readme).toBe(withReadmeTables(readme));
  });

  it("list in the README every kind and every function, each linking to its page", () => {
    const readme = readFileSync(README, "utf8");
    for (const kind of [...RESOURCE_KINDS, "Pipeline"]) expect(readme, kind).toContain(`| [\`${kind}\`](docs/reference/resources/${kind}.md) |`);
    for (const name of Object.keys(FUNCTIONS)) expect(readme, name).toContain(`| [\`${name}\`](docs/reference/functions/${name}.md) |`);
  });

  it("carry each kind's notes from its declaration", () => {
    for (const kind of RESOURCE_KINDS) {
      const { notes } = RESOURCES[kind] as ResourceDeclaration;
      if (notes !== undefined) expect(pages.get(`resources/${kind}.md`), kind).toContain(["## Notes", "", ...notes].join("\n"));
    }
  });

  it("have a page per kind of the list, with its example", () => {
    for (const kind of RESOURCE_KINDS) expect(pages.get(`resources/${kind}.md`), kind).toContain(`new etl.${kind}("example"`);
  });

  it.each(RESOURCE_KINDS)("%s's example passes the kind's check", async (kind) => {
    const result = await RESOURCES[kind].implementation.check({}, asGiven(RESOURCES[kind].example) as Record<string, unknown>, STDOUT_REPORTER);
    expect("failures" in result ? result.failures : []).toEqual([]);
  });
});
