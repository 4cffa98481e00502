/**
 * The `pulumi new` templates (templates/ at the repository's top), one per language, as
 * `pulumi-etl-templates-v<version>.tar.gz` holding `templates/<name>/`: unpacked, `pulumi new
 * templates/etl-python` works with no network but the package registries. Each template names the
 * release's packages at the release's version, written here from package.json's so the two never
 * differ: `@pulumi-etl/sdk` or `pulumi-etl` in package.json, `pulumi_etl` in requirements.txt,
 * the Go SDK's module in go.mod (as the release's goproxy/ serves it).
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const { run, releaseTime }: import("./tools-types").ToolsModule = require("./tools.cts");
const { filesUnder }: { filesUnder(root: string): string[] } = require("../sdk.cts");
type DistContext = import("./types").DistContext;

const { SDK_NAMES }: typeof import("../../provider/plugin") = require("pulumi-etl/plugin");

/** The npm packages a template may depend on: the dynamic resources' and the plugin's SDK. */
const NPM_PACKAGES = ["pulumi-etl", SDK_NAMES.nodejs];
/** The Go SDK's module: the import path of its package, less the package's folder. */
const GO_MODULE = path.posix.dirname(SDK_NAMES.go);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** `text` with the one line `pattern` matches replaced; a template without it is a mistake in the template. */
function replaceOnce(text: string, pattern: RegExp, replacement: string, where: string): string {
  const matches = text.match(new RegExp(pattern.source, `${pattern.flags}g`)) ?? [];
  if (matches.length !== 1) throw new Error(`${where}: expected one line matching ${pattern}, found ${matches.length}`);
  return text.replace(pattern, replacement);
}

/** package.json with the release's npm packages it names at `^<version>`; it must name one. */
function stampPackageJson(text: string, version: string, where: string): string {
  const manifest = JSON.parse(text) as { dependencies?: Record<string, string> };
  const named = NPM_PACKAGES.filter((name) => manifest.dependencies?.[name] !== undefined);
  if (named.length === 0) throw new Error(`${where}: its dependencies name none of ${NPM_PACKAGES.join(", ")}`);
  for (const name of named) manifest.dependencies![name] = `^${version}`;
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Each versioned file of a template, and how the release's version is written into it. */
const STAMPS: Record<string, (text: string, version: string, where: string) => string> = {
  "package.json": stampPackageJson,
  "requirements.txt": (text, version, where) => replaceOnce(text, new RegExp(`^${SDK_NAMES.python}==\\S+$`, "m"), `${SDK_NAMES.python}==${version}`, where),
  "go.mod": (text, version, where) =>
    replaceOnce(text, new RegExp(`^(\\s*${escapeRegExp(GO_MODULE)}) v\\S+$`, "m"), `$1 v${version}`, where),
};

/** Copies each template into `into`, its versioned files stamped; returns the templates' names. */
function copyStamped(context: DistContext, into: string): string[] {
  const source = path.join(context.repoRoot, "templates");
  const names = fs.readdirSync(source, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  for (const name of names) {
    const template = path.join(source, name);
    if (!fs.existsSync(path.join(template, "Pulumi.yaml"))) throw new Error(`templates/${name} has no Pulumi.yaml`);
    for (const file of filesUnder(template)) {
      const target = path.join(into, name, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const stamp = STAMPS[path.posix.basename(file)];
      const text = fs.readFileSync(path.join(template, file), "utf8");
      fs.writeFileSync(target, stamp ? stamp(text, context.version, `templates/${name}/${file}`) : text);
    }
  }
  return names;
}

/** A tarball whose bytes depend on the files alone: sorted names, the release's time, no owner, gzip without a name or time. */
function writeTarball(folder: string, tarball: string, context: DistContext): void {
  const seconds = Math.floor(releaseTime(context.repoRoot).getTime() / 1000);
  const tar = `${tarball}.tar`;
  run("tar", ["--sort=name", `--mtime=@${seconds}`, "--owner=0", "--group=0", "--numeric-owner", "--mode=u+rw,go+r,go-w", "-cf", tar, "-C", folder, "templates"]);
  run("gzip", ["-n", "-9", "-f", tar]);
  fs.renameSync(`${tar}.gz`, tarball);
}

function build(context: DistContext): string[] {
  const staging = path.join(context.scratchDir, "templates");
  const names = copyStamped(context, path.join(staging, "templates"));
  const archive = `pulumi-etl-templates-v${context.version}.tar.gz`;
  writeTarball(staging, path.join(context.releaseDir, archive), context);
  context.say(`templates: ${names.join(", ")}`);
  return [archive];
}

module.exports = { build };
