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
  constructor(name, index, shape) {
    super("pulumi-nodejs:dynamic:Noop", name, { ...shape, index, __provider: NOOP_PROVIDER });
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

// The plugin floor (`Floor@plugin`): N resources of a no-op provider plugin (pulumi-resource-noop),
// registered by type token as the plugin's kinds are.
class NoopPluginResource extends pulumi.CustomResource {
  constructor(name, index, shape) {
    super("noop:index:Thing", name, { ...shape, index });
  }
}

// `<Kind>@plugin`: the same resources through the plugin, registered by type token as an SDK does.
const baseKind = kind.replace(/@plugin$/, "");
const onPlugin = kind !== baseKind;
class PluginResource extends pulumi.CustomResource {}
function resourceClass() {
  if (onPlugin)
    return class extends PluginResource {
      constructor(name, args) {
        super(`etl:index:${baseKind}`, name, args);
      }
    };
  return require("pulumi-etl")[baseKind];
}

// Each kind's N objects are its reference example, made unique where the service holds a value
// once (a name, an email, a key) and with top-level inputs given as bench:<input> in the
// configuration (the job-wait runs' cluster and package) taking the example's place.
const { RESOURCE_EXAMPLES } = require("pulumi-etl/plugin");
const isFloor = baseKind === "Floor" || baseKind.startsWith("Floor.");
// A kind's own floor, `Floor.<Kind>`: no-op resources with the kind's
// inputs (and, from its provider, its outputs), so that what the engine itself spends on those
// properties is measured apart from the provider.
const shapeKind = isFloor ? baseKind.split(".")[1] : baseKind;
for (const given of [isFloor ? undefined : baseKind, shapeKind]) {
  if (given !== undefined && !RESOURCE_EXAMPLES[given]) {
    throw new Error(
      `bench:kind must be Floor, Floor.<Kind> or a kind, one of ${Object.keys(RESOURCE_EXAMPLES).join(", ")} (each optionally @plugin), not ${given}`,
    );
  }
}
function withSecrets(value) {
  if (Array.isArray(value)) return value.map(withSecrets);
  if (value === null || typeof value !== "object") return value;
  if (typeof value.secretConfig === "string") return pulumi.secret(`bench-${value.secretConfig}`);
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withSecrets(item)]));
}
const UNIQUE = {
  name: (value, index) => `${value} ${index}`,
  email: (_, index) => `bench-${index}@example.com`,
  publicKey: (_, index) => publicKeyLine(index),
};
// Read once, not per object: the program's own time is part of what is measured.
const overrides =
  shapeKind === undefined
    ? {}
    : Object.fromEntries(
        Object.keys(RESOURCE_EXAMPLES[shapeKind]).flatMap((name) => {
          const given = config.getNumber(name);
          return given === undefined ? [] : [[name, given]];
        }),
      );
function inputsFor(index) {
  if (shapeKind === undefined) return {};
  const inputs = withSecrets(RESOURCE_EXAMPLES[shapeKind]);
  for (const [name, value] of Object.entries(inputs)) {
    if (name in overrides) inputs[name] = overrides[name];
    else if (UNIQUE[name]) inputs[name] = UNIQUE[name](value, index);
  }
  return inputs;
}

if (isFloor) for (const [index, name] of names.entries()) new (onPlugin ? NoopPluginResource : Noop)(name, index, inputsFor(index));
else {
  const Resource = resourceClass();
  for (const [index, name] of names.entries()) new Resource(name, inputsFor(index));
}
