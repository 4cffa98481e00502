/**
 * The READMEs the release ships (in the npm tarballs, the wheel and sdist, the archives and the Go
 * module) are read where they land, away from the repository: each relative link leads to a file
 * of the same archive, and each link into the repository names a file it holds at the release's tag.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { headingAnchors, isAbsolute, markdownLinks } from "../support/markdown-links";
import { RELEASE_DIR, releaseFile, VERSION } from "../support/release";

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const REPOSITORY = "https://github.com/pulumi-etl/pulumi-etl";

/** The release's archives, the Go proxy's module zips included. */
function archives(folder = RELEASE_DIR): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return archives(file);
    return /\.(tgz|tar\.gz|whl|zip)$/.test(entry.name) ? [file] : [];
  });
}

/** Pages a reader sees: Markdown files, and the package metadata PyPI shows as the page. */
const PAGE_ENDINGS = [".md", "METADATA", "PKG-INFO"];
const isPage = (name: string) => PAGE_ENDINGS.some((ending) => path.posix.basename(name) === ending || name.endsWith(ending));

const READ_ZIP = `
import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as archive:
    print(json.dumps({name: archive.read(name).decode("utf8") if name.endswith(tuple(sys.argv[2:])) else None for name in archive.namelist()}))
`;

const read = new Map<string, Map<string, string | undefined>>();

/** Every file of an archive, with the text of each page; each archive is read once. */
function entriesOf(archive: string): Map<string, string | undefined> {
  if (!read.has(archive)) read.set(archive, readEntries(archive));
  return read.get(archive)!;
}

function readEntries(archive: string): Map<string, string | undefined> {
  if (/\.(whl|zip)$/.test(archive)) {
    const pages = JSON.parse(execFileSync("python3", ["-c", READ_ZIP, archive, ...PAGE_ENDINGS], { encoding: "utf8", maxBuffer: 1 << 28 }));
    return new Map(Object.entries(pages as Record<string, string | null>).map(([name, text]) => [name, text ?? undefined]));
  }
  const names = execFileSync("tar", ["-tzf", archive], { encoding: "utf8", maxBuffer: 1 << 28 })
    .split("\n")
    .filter((name) => name !== "" && !name.endsWith("/"));
  return new Map(names.map((name) => [name, isPage(name) ? execFileSync("tar", ["-xzOf", archive, name], { encoding: "utf8" }) : undefined]));
}

/** What is wrong with each link of the page `name` of `archive`, which holds `entries`. */
function brokenLinks(archive: string, name: string, text: string, entries: Map<string, unknown>): string[] {
  return markdownLinks(text).flatMap(({ target, line }) => {
    const where = `${path.basename(archive)}:${name}:${line} ${target}`;
    if (target.startsWith("#")) return headingAnchors(text).has(target.slice(1)) ? [] : [`${where}: no heading gives it`];
    if (isAbsolute(target)) {
      if (!target.startsWith(`${REPOSITORY}/`)) return [];
      const inRepository = new RegExp(`^${REPOSITORY}/(?:blob|tree)/v${VERSION.replace(/\./g, "\\.")}/([^#]+)`).exec(target);
      if (inRepository === null) return [`${where}: not the repository's file at tag v${VERSION}`];
      return existsSync(path.join(REPO_ROOT, decodeURI(inRepository[1]!))) ? [] : [`${where}: the repository holds no such file`];
    }
    const shipped = path.posix.normalize(path.posix.join(path.posix.dirname(name), target.split("#")[0]!));
    const holds = entries.has(shipped) || [...entries.keys()].some((entry) => entry.startsWith(`${shipped}/`));
    return holds ? [] : [`${where}: not in the archive`];
  });
}

describe("the READMEs the release ships", () => {
  const all = existsSync(RELEASE_DIR) ? archives() : [];

  it("include the npm packages' and the Python package's", () => {
    releaseFile(`pulumi-etl-${VERSION}.tgz`);
    const pages = all.flatMap((archive) =>
      [...entriesOf(archive)].filter(([, text]) => text !== undefined).map(([name]) => `${path.basename(archive)}:${name}`),
    );
    expect(pages).toContain(`pulumi-etl-${VERSION}.tgz:package/README.md`);
    expect(pages).toContain(`pulumi-etl-sdk-${VERSION}.tgz:package/README.md`);
    expect(pages).toContain(`pulumi_etl-${VERSION}-py3-none-any.whl:pulumi_etl-${VERSION}.dist-info/METADATA`);
  });

  it("link only to what their archive holds, or to the repository's files at the release's tag", () => {
    const broken = all.flatMap((archive) => {
      const entries = entriesOf(archive);
      return [...entries].flatMap(([name, text]) => (text === undefined ? [] : brokenLinks(archive, name, text, entries)));
    });
    expect(all.length).toBeGreaterThan(5);
    expect(broken).toEqual([]);
  });

  it("give the npm package's readers the docs the repository's README links to", () => {
    const readme = entriesOf(releaseFile(`pulumi-etl-${VERSION}.tgz`)).get("package/README.md")!;
    const targets = markdownLinks(readme).map((link) => link.target);
    expect(targets).toContain(`${REPOSITORY}/blob/v${VERSION}/docs/development.md`);
    expect(targets).toContain(`${REPOSITORY}/tree/v${VERSION}/examples/adopt-existing`);
    expect(targets).toContain("#install");
  });
});
