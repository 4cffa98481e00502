/**
 * The documentation of every input, as written once in the `*Args` interfaces programs use (their
 * TSDoc is what an editor shows), collected into `dist/provider/plugin/field-docs.json` for the
 * plugin's schema, the SDKs and the reference pages. Run by `npm run build`.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const ts: typeof import("typescript") = require("typescript");

const REPO_ROOT = path.resolve(__dirname, "..");
const RESOURCES = path.join(REPO_ROOT, "provider", "resources");
const OUTPUT = path.join(REPO_ROOT, "dist", "provider", "plugin", "field-docs.json");

type Docs = Record<string, Record<string, string>>;
type Node = import("typescript").Node;

function docOf(node: Node): string | undefined {
  const comments = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const text = comments
    .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? "")
    .join("\n")
    .trim();
  return text === "" ? undefined : text.replace(/\s*\n\s*/g, " ");
}

function interfacesIn(file: string, docs: Docs): void {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.ES2023, true);
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node) || !node.name.text.endsWith("Args")) return;
    const members: Record<string, string> = {};
    for (const member of node.members) {
      if (!ts.isPropertySignature(member) || !ts.isIdentifier(member.name)) continue;
      const doc = docOf(member);
      if (doc !== undefined) members[member.name.text] = doc;
    }
    docs[node.name.text] = { ...docs[node.name.text], ...members };
  });
}

function main(): void {
  const docs: Docs = {};
  for (const kind of fs.readdirSync(RESOURCES)) {
    const folder = path.join(RESOURCES, kind);
    if (!fs.statSync(folder).isDirectory()) continue;
    for (const name of fs.readdirSync(folder).filter((file) => file.endsWith(".ts"))) interfacesIn(path.join(folder, name), docs);
  }
  fs.mkdirSync(path.dirname(OUTPUT), { recursive: true });
  fs.writeFileSync(OUTPUT, `${JSON.stringify(docs, null, 2)}\n`);
}

main();
