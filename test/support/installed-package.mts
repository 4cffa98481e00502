/**
 * A Pulumi project folder with `pulumi-etl` installed as npm installs it from the registry: a
 * copy of package.json, dist and bin (the plugin) under the project's own node_modules. Only there does the engine
 * store the short form of the serialized provider (`require("pulumi-etl/...")`); inside this
 * repository the package is linked, resolves to the repository itself, and is copied into state
 * by value. Dependencies (`@pulumi/pulumi`, ...) resolve from the repository's node_modules, so
 * the folder must lie inside the repository.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");

export function writeProjectWithInstalledPackage(dir: string, files: Record<string, string>): void {
  if (path.relative(REPO_ROOT, dir).startsWith("..")) throw new Error(`${dir} is outside the repository`);
  fs.mkdirSync(dir, { recursive: true });
  // Its own package.json stops Node from resolving `pulumi-etl` to the repository (self-reference).
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: path.basename(dir), private: true }, null, 2));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const installed = path.join(dir, "node_modules", "pulumi-etl");
  fs.rmSync(installed, { recursive: true, force: true });
  fs.mkdirSync(installed, { recursive: true });
  fs.cpSync(path.join(REPO_ROOT, "package.json"), path.join(installed, "package.json"));
  fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(installed, "dist"), { recursive: true });
  fs.cpSync(path.join(REPO_ROOT, "bin"), path.join(installed, "bin"), { recursive: true });
}
