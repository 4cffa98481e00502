import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * Whether the emulator accepts connections. An outage closes the listening socket and every
 * open connection, so clients see what they would see of a service that went down: refused
 * connections, and keep-alive connections closed. Listening again reuses the host and the
 * actual port, so the same URL works afterwards. State lives outside the server and
 * lifecycles follow the clock, so nothing is lost and clusters and jobs move on meanwhile.
 */

const RESUME_RETRY_MS = 1000;

/** IPv6 literals need brackets inside a URL. */
export function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

export class Availability {
  private host = "127.0.0.1";
  private port = 0;
  private listening = false;
  private closed = false;
  private resumeTimer: NodeJS.Timeout | undefined;
  /** Changes run one at a time, in the order they were asked for. */
  private queue: Promise<void> = Promise.resolve();
  /**
   * Every open socket. The server's own list leaves out connections whose last response is
   * sent but whose client has not hung up yet, and those would hold a close open for seconds.
   */
  private readonly sockets = new Set<Socket>();

  constructor(private readonly server: Server) {
    server.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.once("close", () => this.sockets.delete(socket));
    });
  }

  /** The first listen: rejects when the address cannot be used (EADDRINUSE, say). */
  async start(port: number, host: string): Promise<void> {
    this.host = host;
    await this.enqueue(async () => {
      await listen(this.server, port, host);
      this.listening = true;
      this.port = (this.server.address() as AddressInfo).port;
    });
  }

  /** `http://host:port` of the listening socket, with the port the system chose for port 0. */
  get listenUrl(): string {
    return `http://${urlHost(this.host)}:${this.port}`;
  }

  /** Stops listening and drops every connection; a scheduled return is cancelled. */
  suspend(): Promise<void> {
    this.cancelResume();
    return this.enqueue(() => this.stopListening());
  }

  /** Listens again on the same host and port; a scheduled return is no longer needed. */
  resume(): Promise<void> {
    this.cancelResume();
    return this.enqueue(() => this.startListening());
  }

  /** Suspends now and resumes by itself at `until` (epoch ms); resolves once suspended. */
  suspendUntil(until: number): Promise<void> {
    const suspended = this.suspend();
    this.scheduleResume(until - Date.now(), false);
    return suspended;
  }

  /** For good: cancels a scheduled return, so no timer outlives the emulator. */
  close(): Promise<void> {
    this.closed = true;
    this.cancelResume();
    return this.enqueue(() => this.stopListening());
  }

  private enqueue(change: () => Promise<void>): Promise<void> {
    const done = this.queue.then(change);
    this.queue = done.catch(() => undefined);
    return done;
  }

  private async stopListening(): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      // Keep-alive and in-flight connections would otherwise survive the listening socket.
      for (const socket of this.sockets) socket.destroy();
    });
  }

  private async startListening(): Promise<void> {
    if (this.listening || this.closed) return;
    await listen(this.server, this.port, this.host);
    this.listening = true;
  }

  private cancelResume(): void {
    clearTimeout(this.resumeTimer);
    this.resumeTimer = undefined;
  }

  /**
   * The timer keeps a process that has nothing else to do alive: the CLI must still be there
   * when the outage ends. Someone may take the port meanwhile; then it retries, saying so once.
   */
  private scheduleResume(delayMs: number, failedBefore: boolean): void {
    const timer = setTimeout(
      () => {
        this.enqueue(() => this.startListening()).then(
          () => {
            if (this.resumeTimer === timer) this.resumeTimer = undefined;
          },
          (error: unknown) => {
            // Cancelled or replaced while trying: whoever did that decides what happens next.
            if (this.resumeTimer !== timer) return;
            if (!failedBefore) {
              process.stderr.write(`etl-emulator: cannot listen again on ${this.listenUrl}: ${(error as Error).message}; retrying every second\n`);
            }
            this.scheduleResume(RESUME_RETRY_MS, true);
          },
        );
      },
      Math.max(0, delayMs),
    );
    this.resumeTimer = timer;
  }
}
