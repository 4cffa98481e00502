/**
 * Where each pending create was sent: the account of the provider that made it. A resource of
 * the plugin records its provider (`<provider urn>::<provider id>`), whose settings the state
 * holds as that provider's inputs, resolved even when the program took them from another
 * resource's outputs (`accountId: staging.slug`). A default provider, and the dynamic
 * resources, take the stack's `etl:*` settings. A provider whose settings cannot be resolved
 * leaves its creates unlooked-for: they stay pending, never cleared as "not created".
 */
import { createClient } from "../client";
import type { RequestFn } from "../client/http";
import { resolveConfig, type ConfigLookup } from "../config";
import { UserFacingError } from "../errors";
import { plainValue, type Deployment, type PendingOperation, type StateResource } from "./state";

export interface Destination {
  request: RequestFn;
  /** The account the creates were sent to, for what etl-recover says. */
  accountId: string;
}

/** `pulumi:providers:etl` resources the engine made itself: they take the stack's configuration. */
const DEFAULT_PROVIDER = /^default(_\d+_\d+_\d+.*)?$/;

/** The provider a resource names: its urn, the text of the reference before the id. */
function providerUrnOf(resource: StateResource): string | undefined {
  const reference = typeof resource.provider === "string" ? resource.provider : undefined;
  if (reference === undefined) return undefined;
  const cut = reference.lastIndexOf("::");
  return cut === -1 ? reference : reference.slice(0, cut);
}

function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** An explicit provider's settings: its own inputs only, then the environment, as the provider itself reads them. */
function explicitLookup(inputs: Record<string, unknown>): ConfigLookup {
  return (key) => asText(inputs[key.replace(/^etl:/, "")]);
}

/**
 * Clients by provider, made once each. `stackSettings` is what the stack's own settings (and the
 * command's flags) resolve to: the default providers' and the dynamic resources' account.
 */
export function destinations(plain: Deployment, stackSettings: ConfigLookup): (op: PendingOperation) => Destination {
  const providers = new Map((plain.deployment.resources ?? []).filter((r) => r.type === "pulumi:providers:etl").map((r) => [r.urn, r]));
  const made = new Map<string, Destination | UserFacingError>();
  const destinationOf = (providerUrn: string | undefined): Destination | UserFacingError => {
    const provider = providerUrn === undefined ? undefined : providers.get(providerUrn);
    const name = providerUrn?.split("::").pop() ?? "";
    const explicit = provider !== undefined && !DEFAULT_PROVIDER.test(name);
    const lookup = explicit ? explicitLookup(plainValue(provider.inputs ?? {}) as Record<string, unknown>) : stackSettings;
    const resolved = resolveConfig(lookup);
    if (!resolved.ok) {
      const whose = explicit ? `provider ${name}'s settings (as the state records them)` : "the stack's settings";
      return new UserFacingError(`${whose} cannot be used: ${resolved.error.message}`);
    }
    return { request: createClient(resolved.config).request, accountId: resolved.config.accountId };
  };
  return (op) => {
    const urn = providerUrnOf(op.resource);
    const key = urn ?? "";
    if (!made.has(key)) made.set(key, destinationOf(urn));
    const destination = made.get(key)!;
    if (destination instanceof UserFacingError) throw destination;
    return destination;
  };
}
