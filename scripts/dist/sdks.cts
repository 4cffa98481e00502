/**
 * The SDKs and the schema as released: made by Pulumi's code generators from the plugin's schema
 * with the release's plugin download address, into the run's scratch folder for the parts that
 * package them; the schema itself is published beside the artifacts.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const sdk: { generateSdks(outRoot: string, options: { pluginDownloadURL: string }): void } = require("../sdk.cts");
type DistContext = import("./types").DistContext;

function build(context: DistContext): string[] {
  const outRoot = path.join(context.scratchDir, "sdk");
  sdk.generateSdks(outRoot, { pluginDownloadURL: context.pluginDownloadURL });
  fs.copyFileSync(path.join(outRoot, "schema.json"), path.join(context.releaseDir, "schema.json"));
  return ["schema.json"];
}

module.exports = { build };
