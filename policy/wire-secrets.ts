/**
 * Which inputs reached the pack as secrets. The engine sends a resource's inputs with their
 * secret marks, and @pulumi/policy unwraps every secret before a validation sees the inputs; this
 * keeps each request's marks beside the inputs it made, read back through the object that the
 * validation's inputs wrap. Only top-level inputs are looked at: that is where the secrets are.
 */
import * as pulumi from "@pulumi/pulumi";

type Deserialize = (struct: { toJavaScript(): unknown }, proxySecrets: boolean) => object;
/** Internal to @pulumi/policy (its declarations are empty): the module its server reads inputs with. */
const deserialize: { deserializeProperties: Deserialize } = require("@pulumi/policy/deserialize");

/** The name @pulumi/policy's input wrapper answers with the object it wraps. */
const WRAPPED_OBJECT = "__getSpecialProxyTarget";
const marks = new WeakMap<object, ReadonlySet<string>>();

function secretKeys(raw: unknown): ReadonlySet<string> {
  const entries = typeof raw === "object" && raw !== null ? Object.entries(raw) : [];
  const isSecret = (value: unknown) =>
    typeof value === "object" && value !== null && (value as Record<string, unknown>)[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig;
  return new Set(entries.filter(([, value]) => isSecret(value)).map(([key]) => key));
}

const unwrapping: Deserialize = deserialize.deserializeProperties;
deserialize.deserializeProperties = (struct, proxySecrets) => {
  const props = unwrapping(struct, proxySecrets);
  marks.set(props, secretKeys(struct.toJavaScript()));
  return props;
};

/** The top-level inputs that came as secrets, of the inputs a validation was given. */
export function secretInputs(props: Record<string, unknown>): ReadonlySet<string> {
  const found = marks.get((props[WRAPPED_OBJECT] as object | undefined) ?? props);
  if (found === undefined) throw new Error("the inputs' secret marks are not available: this pack needs @pulumi/policy 1.21");
  return found;
}
