/**
 * The Python SDK as PyPI takes it: a wheel and an sdist of `pulumi_etl`, made by the standard
 * PEP 517 front end (`python -m build`, the wheel from the sdist) from the SDK the `sdks` part
 * generated, then read back: the wheel must carry the release's version, ask for `pulumi` as a
 * range, and hold the pulumi-plugin.json that tells the engine where to fetch the plugin.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const { sdkDir }: import("./types").ContextModule = require("./context.cts");
const { python, run, releaseTime }: import("./tools-types").ToolsModule = require("./tools.cts");
type DistContext = import("./types").DistContext;

/** What the check needs from a wheel, read with Python's own parsers. */
interface WheelFacts {
  /** The distribution's name as PyPI compares names (lower case, runs of -_. as one -). */
  name: string;
  version: string;
  /** The release's version as PEP 440 writes it. */
  expectedVersion: string;
  pulumiSpecifier: string | null;
  plugin: { resource?: boolean; name?: string; version?: string; server?: string } | null;
}

const READ_WHEEL = `
import json, sys, zipfile
from email.parser import Parser
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

wheel, expected = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as archive:
    names = archive.namelist()
    metadata = Parser().parsestr(archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode())
    plugin = "pulumi_etl/pulumi-plugin.json"
    plugin = json.loads(archive.read(plugin)) if plugin in names else None
pulumi = [Requirement(r) for r in metadata.get_all("Requires-Dist") or [] if Requirement(r).name == "pulumi"]
print(json.dumps({
    "name": canonicalize_name(metadata["Name"]),
    "version": metadata["Version"],
    "expectedVersion": str(Version(expected)),
    "pulumiSpecifier": str(pulumi[0].specifier) if pulumi else None,
    "plugin": plugin,
}))
`;

function readWheel(wheel: string, version: string): WheelFacts {
  return JSON.parse(run(python(), ["-c", READ_WHEEL, wheel, version])) as WheelFacts;
}

/** Every way the wheel can differ from what the release promises, as sentences. */
function wheelProblems(facts: WheelFacts, context: DistContext): string[] {
  const problems: string[] = [];
  if (facts.name !== "pulumi-etl") problems.push(`its name is ${facts.name}, not pulumi_etl`);
  if (facts.version !== facts.expectedVersion) problems.push(`its version is ${facts.version}, not ${facts.expectedVersion}`);
  const specifier = facts.pulumiSpecifier ?? "";
  if (!/>/.test(specifier) || !/</.test(specifier)) problems.push(`it asks for pulumi "${specifier}", not a range with a lower and an upper bound`);
  const plugin = facts.plugin;
  if (plugin === null) problems.push("it holds no pulumi_etl/pulumi-plugin.json");
  else {
    if (plugin.resource !== true || plugin.name !== "etl") problems.push(`its pulumi-plugin.json names ${JSON.stringify(plugin.name)} (resource: ${plugin.resource}), not the resource plugin etl`);
    if (plugin.version !== context.version) problems.push(`its pulumi-plugin.json asks for plugin version ${plugin.version}, not ${context.version}`);
    if (plugin.server !== context.pluginDownloadURL) problems.push(`its pulumi-plugin.json has server ${plugin.server}, not ${context.pluginDownloadURL}`);
  }
  return problems;
}

/** The package's page on PyPI (setup.py reads README.md): what it is and where its plugin comes from. */
function readme(context: DistContext): string {
  const { description } = JSON.parse(fs.readFileSync(path.join(context.releaseDir, "schema.json"), "utf8")) as { description: string };
  return [
    "# pulumi_etl",
    "",
    description,
    "",
    `The Python SDK of the \`etl\` Pulumi provider. Its programs run on the provider plugin of the same version, which the Pulumi engine downloads from ${context.pluginDownloadURL}, or which \`pulumi plugin install resource etl ${context.version} --file pulumi-resource-etl-v${context.version}-linux-amd64.tar.gz\` installs from the release's archive.`,
    "",
  ].join("\n");
}

function build(context: DistContext): string[] {
  // A copy: the build writes beside the sources (build/, *.egg-info).
  const source = path.join(context.scratchDir, "python-package");
  const out = path.join(context.scratchDir, "python-dist");
  fs.cpSync(sdkDir(context, "python"), source, { recursive: true });
  if (!fs.existsSync(path.join(source, "README.md"))) fs.writeFileSync(path.join(source, "README.md"), readme(context));
  // Without isolation: the cached environment has setuptools and wheel, so nothing is fetched.
  const epoch = String(Math.floor(releaseTime(context.repoRoot).getTime() / 1000));
  run(python(), ["-m", "build", "--no-isolation", "--outdir", out, source], { env: { SOURCE_DATE_EPOCH: epoch } });
  const files = fs.readdirSync(out).sort();
  const wheel = files.find((file) => file.endsWith(".whl"));
  const sdist = files.find((file) => file.endsWith(".tar.gz"));
  if (!wheel || !sdist || files.length !== 2) throw new Error(`python -m build wrote ${files.join(", ")}, not one wheel and one sdist`);
  const problems = wheelProblems(readWheel(path.join(out, wheel), context.version), context);
  if (problems.length > 0) throw new Error(`the wheel ${wheel} is not what the release promises: ${problems.join("; ")}`);
  for (const file of files) fs.copyFileSync(path.join(out, file), path.join(context.releaseDir, file));
  return files;
}

module.exports = { build };
