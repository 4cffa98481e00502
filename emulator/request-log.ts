/**
 * A record of every API request, so tests can assert what a client actually sent (how many
 * calls, in which order, as whom) without instrumenting the client.
 */

export interface RequestLogEntry {
  method: string;
  /** The path as sent, without the query string. */
  path: string;
  /** The query string without the leading `?`; empty when there is none. */
  query: string;
  status: number;
  /** The authenticated user, or null when the request never got past authentication. */
  userId: number | null;
  time: string;
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
  }

  list(): readonly RequestLogEntry[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}
