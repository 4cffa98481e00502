/**
 * The provider process's configuration, set once by the dynamic provider's `configure` and used
 * by every operation. Kept here, not in the serialized provider, so nothing of it reaches state.
 */
import { cancellationReason, cancelSignal } from "./cancellation";
import { createClient, createReachability, type Client, type ClientStats } from "./client";
import type { RequestFn } from "./client/http";
import type { Cancellation } from "./client/policies/cancel";
import { createPacingState } from "./client/policies/pacing";
import { createClientStats, resetStats, snapshotOf } from "./client/policies/stats";
import { DEFAULT_RETRY_BUDGET_SECONDS, resolveConfig, type ConfigLookup, type ConfigResult, type ProviderConfig } from "./config";

let resolved: ConfigResult | undefined;
let providerClient: Client | undefined;
let programClient: { key: string; client: Client } | undefined;

// One process draws on one allowance and reaches one service: every client here shares the
// pacing state, what is known of the service's reachability, and the counters.
const pacing = createPacingState();
const reachability = createReachability();
const stats = createClientStats();

export function configureFrom(lookup: ConfigLookup): void {
  resolved = resolveConfig(lookup);
  providerClient = undefined;
}

/**
 * For the read-only functions, which run in the program's process: the same settings, read
 * from the stack's configuration there (secrets arrive decrypted) with the same fallbacks.
 */
export function programRequest(): RequestFn {
  const config = programConfig();
  const key = JSON.stringify(config);
  if (programClient?.key !== key) programClient = { key, client: clientFor(config) };
  return programClient.client.request;
}

/** The account the program's configuration names (`etl:accountId`), for paths at the host root. */
export function programAccountId(): string {
  return programConfig().accountId;
}

/**
 * Set by the plugin: its functions serve the provider's own settings, since no program's
 * configuration reaches a plugin process.
 */
let functionsUseProviderSettings = false;

export function serveFunctionsWithProviderSettings(): void {
  functionsUseProviderSettings = true;
}

/**
 * A stack setting as the program's runtime reads it. Required here, in a program only: the
 * plugin, which takes its settings from the engine, never loads the program runtime.
 */
function programSetting(key: string): string | undefined {
  const pulumi: typeof import("@pulumi/pulumi") = require("@pulumi/pulumi");
  return pulumi.runtime.getConfig(key);
}

function programConfig(): ProviderConfig {
  if (functionsUseProviderSettings) {
    resolved ??= resolveConfig(() => undefined);
    if (!resolved.ok) throw resolved.error;
    return resolved.config;
  }
  const result = resolveConfig(programSetting);
  if (!result.ok) throw result.error;
  return result.config;
}

/** The configured request function; throws the configuration error when settings are wrong. */
export function apiRequest(): RequestFn {
  // Without a `configure` call (older engines), environment variables still work.
  resolved ??= resolveConfig(() => undefined);
  if (!resolved.ok) throw resolved.error;
  // Only the provider's operations belong to a deployment that can be cancelled.
  providerClient ??= clientFor(resolved.config, { signal: cancelSignal, reason: cancellationReason });
  return providerClient.request;
}

/** What this process's requests have cost so far: retries, 429s, pacing and backoff time. */
export function clientStats(): ClientStats {
  return snapshotOf(stats);
}

export function resetClientStats(): void {
  resetStats(stats);
}

function clientFor(config: ProviderConfig, cancellation?: Cancellation): Client {
  return createClient(config, { pacing, reachability, stats, cancellation });
}

/**
 * How long a lookup after an unknown outcome is tried again while the service cannot answer:
 * not at all when requests are never retried (`etl:maxRetries` 0), else five retry budgets (10
 * minutes by default), since giving up leaves an object the next `up` cannot tell apart.
 */
export function lookupPatienceMs(): number {
  if (resolved === undefined || !resolved.ok) return 0;
  const { maxRetries, retryBudgetSeconds } = resolved.config;
  return maxRetries === 0 ? 0 : 5 * retryBudgetSeconds * 1000;
}

/**
 * How long a wait keeps polling while the service cannot answer: one retry budget, counted from
 * the first read that failed, as a single request would; not at all with `etl:maxRetries` 0.
 */
export function outageToleranceMs(): number {
  if (resolved === undefined || !resolved.ok) return DEFAULT_RETRY_BUDGET_SECONDS * 1000;
  const { maxRetries, retryBudgetSeconds } = resolved.config;
  return maxRetries === 0 ? 0 : retryBudgetSeconds * 1000;
}
