/**
 * The Go SDK as a Go module proxy serves it, under release/goproxy/: `<module>/@v/list`,
 * `v<version>.info`, `.mod` and `.zip` (entries under `<module>@v<version>/`, as
 * golang.org/x/mod/zip lays them out), so that
 *
 *   GOPROXY=file://<release>/goproxy,https://proxy.golang.org GONOSUMDB='github.com/pulumi-etl/*'
 *
 * resolves `go get github.com/pulumi-etl/pulumi-etl/sdk/go@v<version>` by its version. The public
 * checksum database has never seen the module, hence GONOSUMDB (or GOPRIVATE). The part ends by
 * having Go download the module from that proxy into an empty module cache and comparing the
 * checksums Go computes with the ones computed here.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const crypto: typeof import("node:crypto") = require("node:crypto");
const { sdkDir }: import("./types").ContextModule = require("./context.cts");
const { python, run, releaseTime }: import("./tools-types").ToolsModule = require("./tools.cts");
type DistContext = import("./types").DistContext;

/** Folders a module zip leaves out: version control data and vendored copies. */
const LEFT_OUT_FOLDERS = new Set([".git", ".hg", ".svn", ".bzr", "vendor"]);

/** How a module proxy spells a path or version in its URLs: each upper-case letter as `!` and its lower case. */
function escapeForProxy(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => `!${letter.toLowerCase()}`);
}

function modulePath(goMod: string): string {
  const match = /^module\s+(\S+)/m.exec(goMod);
  if (!match) throw new Error("the Go SDK's go.mod names no module");
  return match[1]!;
}

/** The module's files, relative to its folder: all but nested modules and the folders left out. */
function moduleFiles(root: string, dir = root): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const nested = fs.existsSync(path.join(full, "go.mod"));
      return nested || LEFT_OUT_FOLDERS.has(entry.name) ? [] : moduleFiles(root, full);
    }
    return entry.isFile() ? [path.relative(root, full).split(path.sep).join("/")] : [];
  });
}

/** Go's "h1:" checksum of a set of files: SHA-256 over the sorted "<sha256>  <name>" lines. */
function goChecksum(files: Array<{ name: string; content: Buffer }>): string {
  const lines = [...files]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((file) => `${crypto.createHash("sha256").update(file.content).digest("hex")}  ${file.name}\n`);
  return `h1:${crypto.createHash("sha256").update(lines.join("")).digest("base64")}`;
}

const WRITE_ZIP = `
import json, sys, zipfile
spec = json.load(sys.stdin)
with zipfile.ZipFile(spec["zip"], "w", zipfile.ZIP_DEFLATED) as archive:
    for name, source in spec["entries"]:
        entry = zipfile.ZipInfo(name, date_time=tuple(spec["time"]))
        entry.compress_type = zipfile.ZIP_DEFLATED
        entry.external_attr = 0o644 << 16
        with open(source, "rb") as data:
            archive.writestr(entry, data.read())
`;

/** Writes the zip with every entry stamped with `time`, so the same sources give the same bytes. */
function writeZip(zip: string, entries: Array<[string, string]>, time: Date): void {
  const stamp = [time.getUTCFullYear(), time.getUTCMonth() + 1, time.getUTCDate(), time.getUTCHours(), time.getUTCMinutes(), time.getUTCSeconds()];
  run(python(), ["-c", WRITE_ZIP], { input: JSON.stringify({ zip, entries, time: stamp }) });
}

interface Checksums {
  zip: string;
  mod: string;
}

/**
 * Go, given only the file proxy before the machine's usual one, downloads the module into an
 * empty module cache; its checksums must be the ones computed from the files.
 */
function verifyWithGo(context: DistContext, module: string, version: string, expected: Checksums): void {
  const work = path.join(context.scratchDir, "go-verify");
  const env = {
    GOMODCACHE: path.join(work, "modcache"),
    GOPROXY: `file://${path.join(context.releaseDir, "goproxy")},${run("go", ["env", "GOPROXY"]).trim()}`,
    GONOSUMDB: "github.com/pulumi-etl/*",
    // Writable, so the scratch folder can be removed.
    GOFLAGS: "-modcacherw",
    GOTOOLCHAIN: "local",
    GOWORK: "off",
  };
  fs.mkdirSync(work, { recursive: true });
  const downloaded = JSON.parse(run("go", ["mod", "download", "-json", `${module}@${version}`], { cwd: work, env })) as { Version?: string; Sum?: string; GoModSum?: string; Error?: string };
  if (downloaded.Error) throw new Error(`go mod download ${module}@${version} from the release's proxy failed: ${downloaded.Error}`);
  const seen = { version: downloaded.Version, zip: downloaded.Sum, mod: downloaded.GoModSum };
  const wanted = { version, ...expected };
  if (JSON.stringify(seen) !== JSON.stringify(wanted)) throw new Error(`go mod download ${module}@${version} gave ${JSON.stringify(seen)}, not ${JSON.stringify(wanted)}`);
}

function build(context: DistContext): string[] {
  const root = sdkDir(context, "go");
  const goMod = fs.readFileSync(path.join(root, "go.mod"));
  const module = modulePath(goMod.toString("utf8"));
  const version = `v${context.version}`;
  const time = releaseTime(context.repoRoot);
  const folder = path.posix.join("goproxy", escapeForProxy(module), "@v");
  const base = path.posix.join(folder, escapeForProxy(version));
  fs.mkdirSync(path.join(context.releaseDir, folder), { recursive: true });
  const names = moduleFiles(root).sort();
  const prefix = `${module}@${version}/`;
  writeZip(path.join(context.releaseDir, `${base}.zip`), names.map((name) => [prefix + name, path.join(root, name)]), time);
  fs.writeFileSync(path.join(context.releaseDir, `${base}.mod`), goMod);
  fs.writeFileSync(path.join(context.releaseDir, `${base}.info`), `${JSON.stringify({ Version: version, Time: time.toISOString().replace(/\.000Z$/, "Z") })}\n`);
  fs.writeFileSync(path.join(context.releaseDir, folder, "list"), `${version}\n`);
  const checksums = {
    zip: goChecksum(names.map((name) => ({ name: prefix + name, content: fs.readFileSync(path.join(root, name)) }))),
    mod: goChecksum([{ name: "go.mod", content: goMod }]),
  };
  verifyWithGo(context, module, version, checksums);
  context.say(`go: ${module} ${version} ${checksums.zip}, go.mod ${checksums.mod}`);
  return [`${folder}/list`, `${base}.info`, `${base}.mod`, `${base}.zip`];
}

module.exports = { build };
