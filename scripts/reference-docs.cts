/**
 * Writes the reference pages (docs/reference) from the plugin's schema, as built: `npm run docs`.
 * Pages no longer in the schema are removed, so the folder is exactly what the schema says.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const { referencePages }: typeof import("../provider/plugin/reference-docs") = require("../dist/provider/plugin/reference-docs.js");

const ROOT = path.resolve(__dirname, "..", "docs", "reference");

fs.rmSync(ROOT, { recursive: true, force: true });
const pages = referencePages();
for (const [page, text] of pages) {
  const file = path.join(ROOT, page);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}
console.log(`[docs] ${pages.size} pages written to ${path.relative(process.cwd(), ROOT) || "."}`);
