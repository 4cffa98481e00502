/**
 * Every relative link of the README and the docs leads somewhere in the repository: the file or
 * folder exists, and a `#anchor` into a Markdown page names one of its headings.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { headingAnchors, isAbsolute, markdownLinks } from "../support/markdown-links";

const REPO_ROOT = path.resolve(__dirname, "..", "..");

function markdownUnder(folder: string): string[] {
  return readdirSync(path.join(REPO_ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return markdownUnder(relative);
    return entry.name.endsWith(".md") ? [relative] : [];
  });
}

const PAGES = ["README.md", "emulator/README.md", ...markdownUnder("docs")];

const anchorsOf = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  if (!anchorsOf.has(file)) anchorsOf.set(file, headingAnchors(readFileSync(file, "utf8")));
  return anchorsOf.get(file)!;
}

/** Why a link of `page` leads nowhere, or undefined when it resolves. */
function brokenBecause(page: string, target: string): string | undefined {
  const [pathPart = "", anchor] = target.split("#", 2);
  const file = pathPart === "" ? path.join(REPO_ROOT, page) : path.resolve(REPO_ROOT, path.dirname(page), decodeURI(pathPart));
  if (path.relative(REPO_ROOT, file).startsWith("..")) return "outside the repository";
  if (!existsSync(file)) return "no such file or folder";
  if (anchor === undefined || !file.endsWith(".md") || statSync(file).isDirectory()) return undefined;
  return anchors(file).has(anchor) ? undefined : `no heading gives #${anchor}`;
}

describe("the links of the README and the docs", () => {
  it("finds the pages and their links", () => {
    expect(PAGES).toContain("docs/development.md");
    expect(PAGES).toContain("docs/reference/resources/Cluster.md");
    expect(markdownLinks(readFileSync(path.join(REPO_ROOT, "README.md"), "utf8")).length).toBeGreaterThan(20);
  });

  it.each(PAGES)("%s: every relative link resolves in the repository", (page) => {
    const links = markdownLinks(readFileSync(path.join(REPO_ROOT, page), "utf8")).filter((link) => !isAbsolute(link.target));
    const broken = links.flatMap((link) => {
      const why = brokenBecause(page, link.target);
      return why === undefined ? [] : [`${page}:${link.line} ${link.target}: ${why}`];
    });
    expect(broken).toEqual([]);
  });
});

describe("markdownLinks and headingAnchors", () => {
  it("reads links and images outside code, and anchors as GitHub makes them", () => {
    const page = [
      "# The `etl` tools, and more",
      "See [the tools](#the-etl-tools-and-more), ![a chart](chart.svg) and [a [nested] text](docs/a.md#b).",
      "`[not a link](x.md)` and [absolute](https://example.com), [a link",
      "across lines](docs/c.md).",
      "```",
      "[in a fence](y.md)",
      "```",
      "## Faults",
      "## Faults",
    ].join("\n");
    expect(markdownLinks(page).map((link) => `${link.line} ${link.target}`)).toEqual([
      "2 #the-etl-tools-and-more",
      "2 chart.svg",
      "2 docs/a.md#b",
      "3 https://example.com",
      "3 docs/c.md",
    ]);
    expect([...headingAnchors(page)]).toEqual(["the-etl-tools-and-more", "faults", "faults-1"]);
    expect(isAbsolute("https://example.com")).toBe(true);
    expect(isAbsolute("docs/a.md")).toBe(false);
  });
});
