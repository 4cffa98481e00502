import type { HookType } from "../../../contract/vocabularies";
import type { Store } from "../../store";

/**
 * Every delivery the hooks made or would have made, kept in memory per service like the request
 * log (`/_emulator/hook-deliveries`), and the queue web deliveries wait in. Each hook's deliveries
 * go out one after the other, so a receiver gets a job's events in the order they happened;
 * different hooks' go out side by side.
 */

export type DeliveryStatus = "pending" | "success" | "failure";

export interface DeliveryRecord {
  id: number;
  /** The account's slug. */
  account: string;
  hookId: number;
  hookType: HookType;
  event: string;
  /** When the event happened on the service's clock. */
  triggeredAt: string;
  status: DeliveryStatus;
  /** A web hook's POST as sent, its Authorization header masked. */
  request: { method: "POST"; url: string; headers: Record<string, string>; body: unknown } | null;
  /** What another type would have sent, without its secret settings. */
  message: Record<string, unknown> | null;
  response: { status: number; body: string } | null;
  error: string | null;
  /** When the delivery ended (for other types, when it was recorded). */
  finishedAt: string | null;
}

/** Bounds of the per-delivery timeout a harness may set, in real milliseconds. */
export const DELIVERY_TIMEOUT_MS = { default: 10_000, min: 1, max: 600_000 } as const;

/** The most recent records kept; older ones are dropped, as a log would rotate. */
const KEPT_RECORDS = 10_000;

/** Deliveries waiting beyond this are refused at once (recorded as failed) rather than piling up. */
const MAX_WAITING = 1_000;

export class HookDeliveries {
  timeoutMs: number = DELIVERY_TIMEOUT_MS.default;
  private records: DeliveryRecord[] = [];
  private nextId = 1;
  private waiting = 0;
  private readonly tails = new Map<number, Promise<void>>();

  list(): readonly DeliveryRecord[] {
    return this.records;
  }

  clear(): void {
    this.records = [];
  }

  add(fields: Omit<DeliveryRecord, "id">): DeliveryRecord {
    const record = { id: this.nextId++, ...fields };
    this.records.push(record);
    if (this.records.length > KEPT_RECORDS) this.records.splice(0, this.records.length - KEPT_RECORDS);
    return record;
  }

  /** Runs `task` after the hook's earlier deliveries; false when too many are waiting already. */
  enqueue(hookId: number, task: () => Promise<void>): boolean {
    if (this.waiting >= MAX_WAITING) return false;
    this.waiting++;
    const run = (this.tails.get(hookId) ?? Promise.resolve())
      .then(task)
      .catch(reportFailure)
      .finally(() => {
        this.waiting--;
        if (this.tails.get(hookId) === run) this.tails.delete(hookId);
      });
    this.tails.set(hookId, run);
    return true;
  }
}

/** A delivery's own failure is a bug of the service, reported, and never stops the hook's next delivery. */
function reportFailure(error: unknown): void {
  process.stderr.write(`etl-emulator: a hook delivery failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
}

const deliveriesByStore = new WeakMap<Store, HookDeliveries>();

/** The deliveries of the service that holds `store`. */
export function deliveriesOf(store: Store): HookDeliveries {
  let deliveries = deliveriesByStore.get(store);
  if (deliveries === undefined) {
    deliveries = new HookDeliveries();
    deliveriesByStore.set(store, deliveries);
  }
  return deliveries;
}
