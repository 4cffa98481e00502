/**
 * Writes the reference pages (docs/reference) from the plugin's schema and the kinds' declarations,
 * as built, the README's tables of kinds and functions between their markers, and the class of
 * each kind (provider/resources/classes.ts): `npm run docs`.
 * Pages no longer in the schema are removed, so the folder is exactly what the schema says.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const { referencePages, withReadmeTables }: typeof import("../provider/plugin/reference-docs") = require("../dist/provider/plugin/reference-docs.js");
const { classesModuleText }: typeof import("../provider/plugin/classes-module") = require("../dist/provider/plugin/classes-module.js");
const { execFileSync }: typeof import("node:child_process") = require("node:child_process");

const ROOT = path.resolve(__dirname, "..", "docs", "reference");
const README = path.resolve(__dirname, "..", "README.md");
const CLASSES = path.resolve(__dirname, "..", "provider", "resources", "classes.ts");

fs.rmSync(ROOT, { recursive: true, force: true });
const pages = referencePages();
for (const [page, text] of pages) {
  const file = path.join(ROOT, page);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}
fs.writeFileSync(README, withReadmeTables(fs.readFileSync(README, "utf8")));
// A kind new to the registry gets its class here, and the package is built again with it.
const classes = classesModuleText();
if (!fs.existsSync(CLASSES) || fs.readFileSync(CLASSES, "utf8") !== classes) {
  fs.writeFileSync(CLASSES, classes);
  execFileSync("npm", ["run", "--silent", "build"], { stdio: "inherit" });
  console.log(`[docs] ${path.relative(process.cwd(), CLASSES)} written, and the package built again`);
}
console.log(`[docs] ${pages.size} pages written to ${path.relative(process.cwd(), ROOT) || "."}, and the README's tables of kinds and functions`);
