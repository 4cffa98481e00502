"use strict";
// The benchmark's program. Plain JavaScript, so no compile step dilutes the comparison with the
// floor, which is the same file with `bench:kind` set to "Floor".
const crypto = require("node:crypto");
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config("bench");
const kind = config.require("kind");
const count = config.requireNumber("count");
const names = Array.from({ length: count }, (_, i) => `${kind.toLowerCase().replace("@", "-")}-${i}`);

// The floor: N no-op dynamic resources, plugged into the dynamic-provider plugin the way
// pulumi-etl's resources are (a one-line serialized provider, a class right below
// CustomResource), so the comparison isolates what the real providers do.
const NOOP_PROVIDER = `exports.handler = () => require(${JSON.stringify(require.resolve("./noop-provider.js"))});\n`;
class Noop extends pulumi.CustomResource {
  constructor(name, index) {
    super("pulumi-nodejs:dynamic:Noop", name, { index, __provider: NOOP_PROVIDER });
  }
}

// The same ed25519 key for the same index on every run, so an unchanged program stays unchanged.
function publicKeyLine(index) {
  const seed = crypto.createHash("sha256").update(`bench-key-${index}`).digest();
  const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  const spki = crypto.createPublicKey(crypto.createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" })).export({ format: "der", type: "spki" });
  const sshString = (bytes) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const blob = Buffer.concat([sshString(Buffer.from("ssh-ed25519")), sshString(spki.subarray(spki.length - 32))]);
  return `ssh-ed25519 ${blob.toString("base64")} bench-${index}@example.com`;
}

// `<Kind>@plugin`: the same resources through the plugin, registered by type token as an SDK does.
const onPlugin = kind.endsWith("@plugin");
class PluginResource extends pulumi.CustomResource {}
const etl = () =>
  onPlugin
    ? new Proxy({}, { get: (_, kindName) => class extends PluginResource { constructor(name, args) { super(`etl:index:${String(kindName)}`, name, args); } } })
    : require("pulumi-etl");

const build = {
  Floor: (name, index) => new Noop(name, index),
  PublicKey: (name, index) => new (etl().PublicKey)(name, { publicKey: publicKeyLine(index), name }),
  ConnectionGroup: (name) =>
    new (etl().ConnectionGroup)(name, {
      name,
      description: "benchmark",
      connections: [{ id: config.requireNumber("connectionId"), type: "postgres" }],
    }),
  Cluster: (name) => new (etl().Cluster)(name, { name, nodes: 1 }),
  JobRun: (name, index) =>
    new (etl().JobRun)(name, {
      clusterId: config.requireNumber("clusterId"),
      packageId: config.requireNumber("packageId"),
      variables: { index: String(index) },
    }),
}[kind.replace(/@plugin$/, "")];
if (!build) throw new Error(`bench:kind must be Floor, PublicKey, ConnectionGroup, Cluster or JobRun (optionally @plugin), not ${kind}`);

names.forEach((name, index) => build(name, index));
