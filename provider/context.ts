/**
 * The provider process's configuration, set once by the dynamic provider's `configure` and used
 * by every operation. Kept here, not in the serialized provider, so nothing of it reaches state.
 */
import { createHttpRequest, type RequestFn } from "./client/http";
import { resolveConfig, type ConfigLookup, type ConfigResult } from "./config";

let resolved: ConfigResult | undefined;
let request: RequestFn | undefined;

export function configureFrom(lookup: ConfigLookup): void {
  resolved = resolveConfig(lookup);
  request = undefined;
}

/** The configured request function; throws the configuration error when settings are wrong. */
export function apiRequest(): RequestFn {
  // Without a `configure` call (older engines), environment variables still work.
  resolved ??= resolveConfig(() => undefined);
  if (!resolved.ok) throw resolved.error;
  request ??= createHttpRequest(resolved.config);
  return request;
}
