/**
 * The README a package ships: the repository's own, whose relative links lead to files the package
 * does not hold (docs/, examples/, CHANGELOG.md), with each such link made absolute: the file at
 * the release's tag in the repository package.json names. A link within the page (`#install`) stays.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");

/** The repository's web address from package.json's `repository` (`git+https://host/owner/name.git` → `https://host/owner/name`). */
function repositoryURL(repoRoot: string): string {
  const { repository } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { repository?: string | { url?: string } };
  const url = typeof repository === "string" ? repository : repository?.url;
  if (!url?.includes("://")) throw new Error(`package.json's repository (${JSON.stringify(repository)}) gives no web address for the READMEs' links`);
  return url.replace(/^git\+/, "").replace(/\.git$/, "");
}

/** Inline code (left as it is), or `[text](target)` and `![alt](target)`; fenced code is skipped line by line. */
const CODE_OR_LINK = /(`[^`]*`)|(!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?)([^)\s>]+)/g;

/** A target of this repository's tree: not a page anchor, not another site or scheme. */
function isRepositoryPath(target: string): boolean {
  return !target.startsWith("#") && !/^[a-z][a-z0-9+.-]*:/i.test(target);
}

/**
 * `text` (a Markdown file of `folder`, relative to `repoRoot`) with every relative link made an
 * address of the repository at tag `v<version>`: `blob/` for a file, `tree/` for a folder.
 */
function withAbsoluteLinks(text: string, options: { repoRoot: string; folder: string; version: string }): string {
  const base = repositoryURL(options.repoRoot);
  const absolute = (target: string): string => {
    const [file = "", anchor] = target.split("#", 2);
    const local = path.resolve(options.repoRoot, options.folder, decodeURI(file));
    const inRepo = path.relative(options.repoRoot, local).split(path.sep).join("/");
    const kind = fs.existsSync(local) && fs.statSync(local).isDirectory() ? "tree" : "blob";
    return `${base}/${kind}/v${options.version}/${encodeURI(inRepo)}${anchor === undefined ? "" : `#${anchor}`}`;
  };
  const rewrite = (prose: string) =>
    prose.replace(CODE_OR_LINK, (whole, code: string | undefined, opening: string, target: string) =>
      code !== undefined || !isRepositoryPath(target) ? whole : `${opening}${absolute(target)}`,
    );
  return proseAndCode(text)
    .map((chunk) => (chunk.code ? chunk.text : rewrite(chunk.text)))
    .join("\n");
}

/** The text in runs of lines, fenced code blocks (fences included) apart from the prose between them. */
function proseAndCode(text: string): Array<{ code: boolean; text: string }> {
  const chunks: Array<{ code: boolean; lines: string[] }> = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    const fence = /^\s*(```|~~~)/.test(line);
    const code = fenced || fence;
    if (fence) fenced = !fenced;
    const last = chunks.at(-1);
    if (last?.code === code) last.lines.push(line);
    else chunks.push({ code, lines: [line] });
  }
  return chunks.map((chunk) => ({ code: chunk.code, text: chunk.lines.join("\n") }));
}

/** Writes the README `from` into `toFolder` with its relative links made absolute, read as the README of the repository's `folder`. */
function shipReadme(from: string, toFolder: string, options: { repoRoot: string; folder: string; version: string }): void {
  fs.writeFileSync(path.join(toFolder, "README.md"), withAbsoluteLinks(fs.readFileSync(from, "utf8"), options));
}

const exported: import("./types").ReadmeModule = { shipReadme };
module.exports = exported;
