/**
 * What one plugin process holds for the provider the engine configured: the context its
 * operations receive (settings and request function, from Configure; environment variables
 * until then), the connection types already learnt for references to connections, and where
 * a check's words go, and the resource of each singleton kind; made from the process's
 * resources, which it shares with the server.
 */
import { configuredBy, fromEnvironment, type OperationContext, type ProcessResources } from "../context";
import type { ConfigLookup } from "../config";
import { provenContext, settingsProven } from "../settings-proof";
import type { Reporter } from "../progress";
import { SingletonHolders } from "../resources/shared/singleton";
import { knownConnectionTypes, type KnownConnectionTypes } from "./references";

export interface PluginSession {
  /** The context of the configured provider; throws the configuration's error when a setting is wrong. */
  context(): OperationContext;
  /** The context once its settings are proven against the service (settings-proof.ts), as every resource operation needs. */
  proven(): Promise<OperationContext>;
  configure(lookup: ConfigLookup): void;
  /**
   * Proves the settings a lookup gives before the provider is configured with them (CheckConfig):
   * the process's contexts are cached by settings, so Configure's context then holds the same proof
   * and asks nothing again.
   */
  proveSettings(lookup: ConfigLookup): Promise<void>;
  readonly connectionTypes: KnownConnectionTypes;
  /** For what a check says of valid inputs (the operations have theirs in the context). */
  readonly report: Reporter;
  /** The resource of each singleton kind this provider (this process, one API key) holds. */
  readonly singletons: SingletonHolders;
}

export function pluginSession(resources: ProcessResources): PluginSession {
  let context = configuredBy(fromEnvironment, resources, true);
  return {
    context: () => context(),
    proven: () => provenContext(context),
    configure(lookup) {
      context = configuredBy(lookup, resources, true);
    },
    proveSettings: (lookup) => settingsProven(configuredBy(lookup, resources, true)()),
    connectionTypes: knownConnectionTypes(),
    report: resources.progress.reporter,
    singletons: new SingletonHolders(),
  };
}
