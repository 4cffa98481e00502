/**
 * What every operation receives: the settings of the provider it belongs to and a request
 * function configured with them, made when the provider is configured (the dynamic provider's
 * `configure`, the plugin's `Configure`, a program's stack configuration for its functions).
 * Nothing of it lives in module variables, so two providers of one process (two accounts) never
 * share settings, and nothing of it reaches the serialized provider or the state.
 */
import { cancelledBecause, createCancellation, neverCancelled, type ProcessCancellation } from "./cancellation";
import { createClient, createReachability, type Client, type ClientStats } from "./client";
import type { UserRecord } from "./api/system";
import type { RequestFn } from "./client/http";
import { createPacingState } from "./client/policies/pacing";
import { createClientStats, resetStats, snapshotOf } from "./client/policies/stats";
import { resolveConfig, type ConfigLookup, type ProviderConfig } from "./config";
import { createBatchedReads, type BatchedReads } from "./resources/shared/batched-reads";
import { createProgress, STDOUT_REPORTER, type Progress, type Reporter } from "./progress";
import { HeldObjects } from "./resources/shared/held";
import { Reconciler, realClock } from "./resources/shared/reconciler";

export interface OperationContext {
  readonly settings: ProviderConfig;
  readonly request: RequestFn;
  /** Creates sent once, and found again after an unknown outcome. */
  readonly reconciler: Reconciler;
  /** Many reads of one kind answered from its listing. */
  readonly reads: BatchedReads;
  /** The objects this provider's creates made or took over: a delete of one of them sends nothing (held.ts). */
  readonly held: HeldObjects;
  /**
   * How long a wait keeps polling while the service cannot answer: one retry budget, counted from
   * the first read that failed, as a single request would; not at all with `etl:maxRetries` 0.
   */
  readonly outageToleranceMs: number;
  /** Aborted when the deployment is cancelled; never, for a program's functions, which run to the end. */
  readonly signal: AbortSignal;
  /** Statuses and notes, on the row of the resource being served. */
  readonly report: Reporter;
  /** What these settings have learned in this process, asked once and kept with them. */
  readonly learned: SettingsMemory;
}

/**
 * What is asked of the service once per settings and kept for their later operations: the
 * proof of the settings (settings-proof.ts), who their API key's user is (current-user.ts), the
 * accounts they have read. It lives with the context, so new settings, a second provider of the
 * process, or a test's own context start with nothing learned.
 */
export interface SettingsMemory {
  proof?: Promise<void>;
  user?: Promise<UserRecord>;
  userId?: number;
  readonly reachedAccounts: Set<string>;
}

/** The context's request function and what its settings learned: all a lookup of the current user needs. */
export type SettingsUse = Pick<OperationContext, "request" | "learned">;

/** Nothing learned yet: for a context, or a tool's run (an export) that asks with one request function. */
export function newSettingsMemory(): SettingsMemory {
  return { reachedAccounts: new Set() };
}

/** What an operation is told of the process it runs in: when to stop, and where its words go. */
export interface ProcessSide {
  signal: AbortSignal;
  report: Reporter;
}

/**
 * What one process shares by nature, whichever provider of it sends: one allowance of requests
 * (pacing), what is known of the service's reachability, the counters, and the contexts already
 * made (a cache by settings, so the providers of one configuration share one client), its
 * cancellation and its way to the engine's log.
 */
export interface ProcessResources {
  contextFor(config: ProviderConfig, cancellable: boolean): OperationContext;
  stats(): ClientStats;
  resetStats(): void;
  readonly cancellation: ProcessCancellation;
  readonly progress: Progress;
}

export function processResources(): ProcessResources {
  const pacing = createPacingState();
  const reachability = createReachability();
  const stats = createClientStats();
  const contexts = new Map<string, OperationContext>();
  const cancellation = createCancellation();
  const progress = createProgress();
  return {
    contextFor(config, cancellable) {
      const key = `${cancellable}:${JSON.stringify(config)}`;
      let context = contexts.get(key);
      if (context === undefined) {
        // Only a deployment's operations can be cancelled; a program's functions run to the end.
        const signal = cancellable ? cancellation.signal : neverCancelled();
        const client: Client = createClient(config, { pacing, reachability, stats, cancellation: cancellable ? clientCancellation(signal) : undefined });
        context = operationContext(config, client.request, { signal, report: progress.reporter });
        contexts.set(key, context);
      }
      return context;
    },
    stats: () => snapshotOf(stats),
    resetStats: () => resetStats(stats),
    cancellation,
    progress,
  };
}

function clientCancellation(signal: AbortSignal) {
  return { signal, reason: () => cancelledBecause(signal) ?? "the deployment was cancelled" };
}

/**
 * An operation's context from settings and a request function (tests pass their own). Without
 * a process, nothing cancels it and its words go to stdout.
 */
export function operationContext(
  settings: ProviderConfig,
  request: RequestFn,
  side: ProcessSide = { signal: neverCancelled(), report: STDOUT_REPORTER },
): OperationContext {
  const { maxRetries, retryBudgetSeconds } = settings;
  const { signal, report } = side;
  return {
    settings,
    request,
    reconciler: new Reconciler({ clock: realClock, patienceMs: () => lookupPatienceMs(settings), log: (line) => report.note(line, "warning"), signal }),
    reads: createBatchedReads(),
    held: new HeldObjects(),
    outageToleranceMs: maxRetries === 0 ? 0 : retryBudgetSeconds * 1000,
    signal,
    report,
    learned: newSettingsMemory(),
  };
}

/**
 * How long a lookup after an unknown outcome is tried again while the service cannot answer:
 * not at all when requests are never retried (`etl:maxRetries` 0), else five retry budgets (10
 * minutes by default), since giving up leaves an object the next `up` cannot tell apart.
 */
function lookupPatienceMs(settings: ProviderConfig): number {
  return settings.maxRetries === 0 ? 0 : 5 * settings.retryBudgetSeconds * 1000;
}

/**
 * A provider's settings as its configuration gives them, and the context of its operations. A
 * wrong setting fails the first operation that needs the service, with the configuration's
 * error, as it would without any `configure` call (older engines: environment variables).
 */
export function configuredBy(lookup: ConfigLookup, process: ProcessResources, cancellable: boolean): () => OperationContext {
  const resolved = resolveConfig(lookup);
  return () => {
    if (!resolved.ok) throw resolved.error;
    return process.contextFor(resolved.config, cancellable);
  };
}

/** Settings from environment variables alone, for a provider not (yet) configured. */
export const fromEnvironment: ConfigLookup = () => undefined;
