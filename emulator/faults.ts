import { randomInt } from "node:crypto";
import { badRequest, describeValue, readFields } from "./control/io";

/**
 * Injected faults, so clients can be tested against a service that fails the way real ones do.
 * Decisions come from a seeded generator: the same seed and the same sequence of requests give
 * the same faults, so a failing run can be replayed.
 */

export const FAULT_KINDS = ["500", "503", "429", "latency", "reset_before", "reset_after", "hold_after"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const MIN_LATENCY_MS = 50;
export const MAX_LATENCY_MS = 1000;
const MAX_SEED = 0xffffffff;
const METHODS = ["GET", "POST", "PUT", "DELETE"] as const;
export const DEFAULT_HOLD_MS = 3000;
const MAX_HOLD_MS = 600_000;

export interface FaultConfig {
  /** Probability, from 0 to 1, that an API request gets a fault. */
  rate: number;
  /** Faults to choose from, each equally likely. */
  kinds: FaultKind[];
  seed: number;
  /** Only requests of these methods are considered; all of them when absent. */
  methods?: string[];
  /** For `hold_after`: how long an applied request's answer is held back. */
  holdMs: number;
}

export interface FaultDecision {
  kind: FaultKind;
  /** For `latency`, how long the request is held back before it is served; for `hold_after`, its answer after. */
  delayMs: number;
}

/** mulberry32: tiny, fast and good enough to spread faults; not for anything secret. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function readRate(value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw badRequest("rate must be a number from 0 to 1");
  }
  return value;
}

function isFaultKind(value: unknown): value is FaultKind {
  return typeof value === "string" && (FAULT_KINDS as readonly string[]).includes(value);
}

function readKinds(value: unknown): FaultKind[] {
  const allowed = FAULT_KINDS.map((kind) => `"${kind}"`).join(", ");
  if (!Array.isArray(value) || value.length === 0) throw badRequest(`kinds must be a non-empty array of ${allowed}`);
  for (const kind of value) {
    if (!isFaultKind(kind)) throw badRequest(`kinds contains ${describeValue(kind)}; allowed: ${allowed}`);
  }
  if (new Set(value).size !== value.length) throw badRequest("kinds must not list a kind twice");
  return value as FaultKind[];
}

function readMethods(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const allowed = METHODS.join(", ");
  if (!Array.isArray(value) || value.length === 0 || !value.every((m) => (METHODS as readonly unknown[]).includes(m))) {
    throw badRequest(`methods must be a non-empty array of ${allowed}`);
  }
  return [...new Set(value as string[])];
}

function readHoldMs(value: unknown): number {
  if (value === undefined) return DEFAULT_HOLD_MS;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_HOLD_MS) {
    throw badRequest(`holdMs must be an integer from 0 to ${MAX_HOLD_MS}`);
  }
  return value;
}

function readSeed(value: unknown): number {
  if (value === undefined) return randomInt(MAX_SEED);
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_SEED) {
    throw badRequest(`seed must be an integer from 0 to ${MAX_SEED}`);
  }
  return value;
}

/**
 * Validates the body of `PUT /_emulator/faults`. `rate` is required; `kinds` defaults to every
 * kind and `seed` to a random one (reported back, so the run can still be replayed).
 */
export function parseFaultConfig(body: unknown): FaultConfig {
  const fields = readFields(body, ["rate", "kinds", "seed", "methods", "holdMs"], "a fault setting");
  if (!("rate" in fields)) throw badRequest("rate is required");
  const methods = readMethods(fields.methods);
  return {
    rate: readRate(fields.rate),
    kinds: fields.kinds === undefined ? [...FAULT_KINDS] : readKinds(fields.kinds),
    seed: readSeed(fields.seed),
    ...(methods === undefined ? {} : { methods }),
    holdMs: readHoldMs(fields.holdMs),
  };
}

function zeroCounts(): Record<FaultKind, number> {
  return Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
}

export interface FaultStatus {
  enabled: boolean;
  rate: number;
  kinds: FaultKind[];
  seed: number | null;
  methods: string[] | null;
  holdMs: number;
  /** API requests considered since the configuration was set. */
  requests: number;
  /** Faults injected per kind since the configuration was set; kept after turning faults off. */
  injected: Record<FaultKind, number>;
}

export class FaultInjector {
  private config: FaultConfig | undefined;
  private enabled = false;
  private random: () => number = Math.random;
  private requests = 0;
  private injected = zeroCounts();

  configure(config: FaultConfig): void {
    this.config = config;
    this.enabled = true;
    this.random = mulberry32(config.seed);
    this.requests = 0;
    this.injected = zeroCounts();
  }

  disable(): void {
    this.enabled = false;
  }

  status(): FaultStatus {
    return {
      enabled: this.enabled,
      rate: this.config?.rate ?? 0,
      kinds: [...(this.config?.kinds ?? [])],
      seed: this.config?.seed ?? null,
      methods: this.config?.methods ?? null,
      holdMs: this.config?.holdMs ?? DEFAULT_HOLD_MS,
      requests: this.requests,
      injected: { ...this.injected },
    };
  }

  /** Whether this request gets a fault, and which; call once per authenticated API request. */
  decide(method: string): FaultDecision | undefined {
    if (!this.enabled || this.config === undefined) return undefined;
    if (this.config.methods !== undefined && !this.config.methods.includes(method)) return undefined;
    this.requests++;
    const { rate, kinds } = this.config;
    if (this.random() >= rate) return undefined;
    const kind = kinds[Math.floor(this.random() * kinds.length)]!;
    const delayMs =
      kind === "latency" ? MIN_LATENCY_MS + Math.floor(this.random() * (MAX_LATENCY_MS - MIN_LATENCY_MS + 1)) : kind === "hold_after" ? this.config.holdMs : 0;
    this.injected[kind]++;
    return { kind, delayMs };
  }
}
