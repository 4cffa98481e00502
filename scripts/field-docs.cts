/**
 * The documentation of every input, as written once on its field table's entry (a program's
 * `XArgs = ArgsOf<typeof table>` carries it, so it is what an editor shows) or on the members of
 * an `*Args` interface (nested objects, the arguments of functions), collected into `dist/provider/plugin/field-docs.json` for the
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

type Members = import("typescript").NodeArray<import("typescript").TypeElement | import("typescript").ObjectLiteralElementLike>;

function docsOfMembers(members: Members): Record<string, string> {
  const found: Record<string, string> = {};
  for (const member of members) {
    if (member.name === undefined || !ts.isIdentifier(member.name)) continue;
    const doc = docOf(member);
    if (doc !== undefined) found[member.name.text] = doc;
  }
  return found;
}

/** `type XArgs = ArgsOf<typeof table>` (alone or in an intersection): the name of the table, else undefined. */
function tableOfArgs(type: import("typescript").TypeNode): string | undefined {
  if (ts.isIntersectionTypeNode(type)) return type.types.map(tableOfArgs).find((table) => table !== undefined);
  if (!ts.isTypeReferenceNode(type) || type.typeName.getText() !== "ArgsOf") return undefined;
  const argument = type.typeArguments?.[0];
  return argument !== undefined && ts.isTypeQueryNode(argument) ? argument.exprName.getText() : undefined;
}

/** A table's object literal, through `satisfies` and `as`. */
function objectLiteralOf(expression: import("typescript").Expression | undefined): import("typescript").ObjectLiteralExpression | undefined {
  let current = expression;
  while (current !== undefined && (ts.isSatisfiesExpression(current) || ts.isAsExpression(current) || ts.isParenthesizedExpression(current)))
    current = current.expression;
  return current !== undefined && ts.isObjectLiteralExpression(current) ? current : undefined;
}

function argsIn(file: string, docs: Docs): void {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.ES2023, true);
  const tables = new Map<string, import("typescript").ObjectLiteralExpression>();
  source.forEachChild((node) => {
    if (!ts.isVariableStatement(node)) return;
    for (const declaration of node.declarationList.declarations) {
      const literal = objectLiteralOf(declaration.initializer);
      if (ts.isIdentifier(declaration.name) && literal !== undefined) tables.set(declaration.name.text, literal);
    }
  });
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text.endsWith("Args")) {
      docs[node.name.text] = { ...docs[node.name.text], ...docsOfMembers(node.members) };
    } else if (ts.isTypeAliasDeclaration(node) && node.name.text.endsWith("Args")) {
      const table = tableOfArgs(node.type);
      const literal = table === undefined ? undefined : tables.get(table);
      if (table !== undefined && literal === undefined) throw new Error(`${file}: ${node.name.text} names ${table}, which is no object literal of the file`);
      if (literal !== undefined) docs[node.name.text] = { ...docs[node.name.text], ...docsOfMembers(literal.properties) };
    }
  });
}

function main(): void {
  const docs: Docs = {};
  for (const kind of fs.readdirSync(RESOURCES)) {
    const folder = path.join(RESOURCES, kind);
    if (!fs.statSync(folder).isDirectory()) continue;
    for (const name of fs.readdirSync(folder).filter((file) => file.endsWith(".ts"))) argsIn(path.join(folder, name), docs);
  }
  fs.mkdirSync(path.dirname(OUTPUT), { recursive: true });
  fs.writeFileSync(OUTPUT, `${JSON.stringify(docs, null, 2)}\n`);
}

main();
