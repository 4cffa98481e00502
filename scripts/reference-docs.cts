/**
 * Writes the reference pages (docs/reference) from the plugin's schema and the kinds' declarations,
 * as built, and the README's tables of kinds and functions between their markers: `npm run docs`.
 * Pages no longer in the schema are removed, so the folder is exactly what the schema says.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const { referencePages, withReadmeTables }: typeof import("../provider/plugin/reference-docs") = require("../dist/provider/plugin/reference-docs.js");

const ROOT = path.resolve(__dirname, "..", "docs", "reference");
const README = path.resolve(__dirname, "..", "README.md");

fs.rmSync(ROOT, { recursive: true, force: true });
const pages = referencePages();
for (const [page, text] of pages) {
  const file = path.join(ROOT, page);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}
fs.writeFileSync(README, withReadmeTables(fs.readFileSync(README, "utf8")));
console.log(`[docs] ${pages.size} pages written to ${path.relative(process.cwd(), ROOT) || "."}, and the README's tables of kinds and functions`);
