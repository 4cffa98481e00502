/**
 * The provider process's configuration, set once by the dynamic provider's `configure` and used
 * by every operation. Kept here, not in the serialized provider, so nothing of it reaches state.
 */
import * as pulumi from "@pulumi/pulumi";
import { createHttpRequest, type RequestFn } from "./client/http";
import { resolveConfig, type ConfigLookup, type ConfigResult } from "./config";

let resolved: ConfigResult | undefined;
let request: RequestFn | undefined;

export function configureFrom(lookup: ConfigLookup): void {
  resolved = resolveConfig(lookup);
  request = undefined;
}

/**
 * For the read-only functions, which run in the program's process: the same settings, read
 * from the stack's configuration there (secrets arrive decrypted) with the same fallbacks.
 */
export function programRequest(): RequestFn {
  const result = resolveConfig((key) => pulumi.runtime.getConfig(key));
  if (!result.ok) throw result.error;
  return createHttpRequest(result.config);
}

/** The configured request function; throws the configuration error when settings are wrong. */
export function apiRequest(): RequestFn {
  // Without a `configure` call (older engines), environment variables still work.
  resolved ??= resolveConfig(() => undefined);
  if (!resolved.ok) throw resolved.error;
  request ??= createHttpRequest(resolved.config);
  return request;
}
