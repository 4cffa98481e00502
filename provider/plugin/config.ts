/**
 * The provider's own settings on the plugin: CheckConfig refuses what the dynamic resources would
 * refuse at their first call (same rules, same messages, same environment fallbacks) and proves
 * the settings that pass against the service; DiffConfig
 * never replaces a resource (a new key or address is the same account's objects); Configure sets
 * the settings the provider's operations receive.
 */
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import { resolveConfig, SETTINGS, type ConfigLookup } from "../config";
import { isUnknown } from "../resources/shared/check";
import { SettingsError } from "../settings-proof";
import { containsUnknown, sameValue } from "../resources/shared/diff";
import { checkFailures, detailedDiff } from "./responses";
import type { PluginSession } from "./session";
import { fromStruct, type Values } from "./values";

type SettingName = keyof typeof SETTINGS;
const NAMES = Object.keys(SETTINGS) as SettingName[];

/** Config values are strings in stack configuration, typed in a program's provider arguments. */
function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

function lookupIn(values: Values): ConfigLookup {
  const byKey = new Map<string, SettingName>(NAMES.map((name) => [SETTINGS[name].key, name]));
  return (key) => {
    const name = byKey.get(key);
    return name === undefined ? undefined : asText(values[name]);
  };
}

/** `invalid provider configuration: etl:apiUrl is not set (...); etl:apiKey must ...` as one failure per setting. */
function failuresOf(message: string): Array<{ property: string; reason: string }> {
  const problems = message.replace(/^invalid provider configuration: /, "").split("; ");
  return problems.map((reason) => {
    const name = NAMES.find((candidate) => reason.startsWith(SETTINGS[candidate].key));
    return { property: name ?? "", reason };
  });
}

/**
 * Valid settings are proven here (settings-proof.ts), where the engine reports a failure once, on
 * the provider, and goes no further: raised by the first resource's Check instead, it was reported
 * on that resource, while a component's Construct already in flight was cut off by the engine's
 * shutdown and reported a transport error of its own.
 */
export async function checkConfig(session: PluginSession, req: providerProto.CheckRequest): Promise<providerProto.CheckResponse> {
  const news = req.getNews();
  const values = fromStruct(news).values;
  const response = new providerProto.CheckResponse();
  response.setInputs(news);
  // Settings from other resources' outputs are checked once known, by Configure's first call.
  if (containsUnknown(values)) return response;
  const lookup = lookupIn(values);
  const result = resolveConfig(lookup);
  if (!result.ok) {
    response.setFailuresList(checkFailures(failuresOf(result.error.message)));
    return response;
  }
  const refused = await session.proveSettings(lookup).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (refused instanceof SettingsError) response.setFailuresList(checkFailures([{ property: "", reason: refused.message }]));
  else if (refused !== undefined) throw refused;
  return response;
}

export function diffConfig(req: providerProto.DiffRequest): providerProto.DiffResponse {
  const olds = fromStruct(req.getOldInputs() ?? req.getOlds()).values;
  const news = fromStruct(req.getNews()).values;
  const changed = NAMES.filter((name) => !sameValue(olds[name], news[name]));
  return detailedDiff(Object.fromEntries(changed.map((name) => [name, "update" as const])), { changes: changed.length > 0 });
}

/**
 * Settings that are another resource's outputs not yet known (at a preview) cannot be proven:
 * the engine calls nothing that needs them until they are known, and configures again then.
 */
function provableOnceKnown(lookup: ConfigLookup): ConfigLookup {
  const unknown = NAMES.some((name) => isUnknown(lookup(SETTINGS[name].key)));
  if (!unknown) return lookup;
  return (key) => (key === SETTINGS.skipCredentialsValidation.key ? "true" : lookup(key));
}

/** Variables arrive as `etl:config:apiUrl`; newer engines also send the typed arguments. */
export function configure(session: PluginSession, req: providerProto.ConfigureRequest): providerProto.ConfigureResponse {
  const args = req.getArgs();
  if (args !== undefined && Object.keys(args.toJavaScript()).length > 0) {
    session.configure(provableOnceKnown(lookupIn(fromStruct(args).values)));
  } else {
    const variables = req.getVariablesMap();
    session.configure(provableOnceKnown((key) => variables.get(key.replace(/^etl:/, "etl:config:")) ?? undefined));
  }
  const response = new providerProto.ConfigureResponse();
  response.setAcceptsecrets(true);
  // Creates and updates are previewed here (resources.ts), so that an Account's new slug is unknown at a preview.
  response.setSupportspreview(true);
  // Resources given as inputs arrive as references, which the inputs taking one resolve (references.ts).
  response.setAcceptresources(true);
  return response;
}
