import type { ResourceValidationPolicy } from "@pulumi/policy";
import { packageSchema, typeToken } from "pulumi-etl/plugin";
import { isKind, named } from "../resources";
import { secretInputs } from "../wire-secrets";

type Schema = { resources: Record<string, { inputProperties?: Record<string, { secret?: boolean }> }> };

/** The connection attributes the plugin's schema marks secret (password, keys, tokens, codes). */
function secretAttributes(): string[] {
  const inputs = (packageSchema() as Schema).resources[typeToken("Connection")]?.inputProperties ?? {};
  return Object.entries(inputs)
    .filter(([, property]) => property.secret === true)
    .map(([name]) => name);
}

/**
 * A secret given as plain text reaches the state, the plan and every log unencrypted. The pack
 * sees whether each value arrived as a secret; where it came from inside the program it cannot.
 */
export const connectionSecrets: ResourceValidationPolicy = {
  name: "etl-connection-secrets",
  description: "A connection's secret attributes (password, refreshToken, code, ...) are given as secrets, not plain text.",
  enforcementLevel: "mandatory",
  validateResource: (args, report) => {
    if (!isKind(args.type, "Connection")) return;
    const secrets = secretInputs(args.props);
    for (const name of secretAttributes()) {
      if (args.props[name] === undefined || secrets.has(name)) continue;
      report(`${named("Connection", args.name)}: ${name} is given as plain text; give it as a secret (pulumi.secret, or config set --secret).`);
    }
  },
};
