import type { FaultKind } from "./faults";

/**
 * A record of every API request, so tests can assert what a client actually sent (how many
 * calls, in which order, as whom) without instrumenting the client.
 *
 * Only the most recent entries are kept (MAX_LOG_ENTRIES): a long-running emulator under load
 * would otherwise grow without bound. Tests reset the log long before reaching the cap.
 */

export const MAX_LOG_ENTRIES = 100_000;

export interface RequestLogEntry {
  method: string;
  /** The path as sent, without the query string. */
  path: string;
  /** The query string without the leading `?`; empty when there is none. */
  query: string;
  /** 0 when the connection was dropped instead of answered. */
  status: number;
  /** The authenticated user, or null when the request never got past authentication. */
  userId: number | null;
  /** The injected fault, or null for a request served normally. */
  fault: FaultKind | null;
  time: string;
}

/** A ring buffer: adding is constant time however full the log is. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  /** Index of the oldest entry once the buffer has wrapped around. */
  private start = 0;

  constructor(private readonly capacity = MAX_LOG_ENTRIES) {}

  add(entry: RequestLogEntry): void {
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
      return;
    }
    this.entries[this.start] = entry;
    this.start = (this.start + 1) % this.capacity;
  }

  /** Oldest first. */
  list(): RequestLogEntry[] {
    return [...this.entries.slice(this.start), ...this.entries.slice(0, this.start)];
  }

  clear(): void {
    this.entries = [];
    this.start = 0;
  }
}
