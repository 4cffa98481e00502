/**
 * What one plugin process holds for the provider the engine configured: the context its
 * operations receive (settings and request function, from Configure; environment variables
 * until then) and the connection types already learnt for references to connections.
 */
import { configuredBy, fromEnvironment, processResources, type OperationContext } from "../context";
import type { ConfigLookup } from "../config";
import { knownConnectionTypes, type KnownConnectionTypes } from "./references";

export interface PluginSession {
  /** The context of the configured provider; throws the configuration's error when a setting is wrong. */
  context(): OperationContext;
  configure(lookup: ConfigLookup): void;
  readonly connectionTypes: KnownConnectionTypes;
}

export function pluginSession(): PluginSession {
  const resources = processResources();
  let context = configuredBy(fromEnvironment, resources, true);
  return {
    context: () => context(),
    configure(lookup) {
      context = configuredBy(lookup, resources, true);
    },
    connectionTypes: knownConnectionTypes(),
  };
}
