/**
 * What every part of a release shares: its version (package.json's, the one place it is written),
 * the folder it is written to, and the address the SDKs give the engine to fetch the plugin from.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const crypto: typeof import("node:crypto") = require("node:crypto");

const REPO_ROOT = path.resolve(__dirname, "..", "..");

type DistContext = import("./types").DistContext;

function packageVersion(repoRoot = REPO_ROOT): string {
  return (JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
}

function sha256(file: string): string {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** Where the `sdks` part wrote a language's SDK, made with the release's schema. */
function sdkDir(context: DistContext, language: import("./types").Language): string {
  return path.join(context.scratchDir, "sdk", language);
}

const exported: import("./types").ContextModule = { REPO_ROOT, packageVersion, sha256, sdkDir };
module.exports = exported;
