/**
 * Plain http to a host other than this machine would carry the API key unencrypted, so it is
 * refused unless `etl:allowInsecureHttp` accepts it. Which fix to suggest depends on what is at
 * the address: a mistyped host does not resolve, and accepting plain http would not help. Before
 * refusing, the address is tried with a bare TCP connection, on which nothing is written; the
 * refusal speaks of the scheme only once something has answered there, and any other failure is
 * reported as the address that could not be reached, as it would be over https.
 */
import * as net from "node:net";
import { ConfigurationError, isLoopback, SETTINGS } from "../config";

/** Refuses plain http to another host before anything is sent: a failure to connect as it happened, else the scheme. */
type PlainHttpGuard = (signal?: AbortSignal) => Promise<void>;

/** Whether the address would carry the key unencrypted to another machine. */
function isPlainHttpToAnotherHost(apiUrl: string): boolean {
  const url = new URL(apiUrl);
  return url.protocol === "http:" && !isLoopback(url.hostname);
}

function insecureHttpMessage(apiUrl: string): string {
  const url = new URL(apiUrl);
  const { allowInsecureHttp } = SETTINGS;
  return (
    `${SETTINGS.apiUrl.key} uses plain http to ${url.hostname}, which would send the API key unencrypted ` +
    `(${url.origin} answers; nothing was sent); use https, or set ${allowInsecureHttp.key} (or ${allowInsecureHttp.env}) to "true" to accept that`
  );
}

/**
 * The guard of a request function, or none when the address is safe or plain http was accepted.
 * Once the host has answered, every request is refused at once with the same message.
 */
export function plainHttpGuard(apiUrl: string, allowed: boolean | undefined, timeoutMs: number): PlainHttpGuard | undefined {
  if (allowed === true || !isPlainHttpToAnotherHost(apiUrl)) return undefined;
  let answered = false;
  return async (signal) => {
    if (!answered) {
      await connectOnly(new URL(apiUrl), timeoutMs, signal);
      answered = true;
    }
    throw new ConfigurationError(insecureHttpMessage(apiUrl));
  };
}

/** Resolves once a connection is made (and closes it), or rejects with the socket's own error. */
function connectOnly(url: URL, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port || 80) });
    const finish = (error?: Error) => {
      socket.destroy();
      signal?.removeEventListener("abort", onAbort);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = () => finish(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.setTimeout(timeoutMs, () =>
      finish(Object.assign(new Error(`no answer to the connection in ${timeoutMs} ms`), { code: "ETIMEDOUT", syscall: "connect" })),
    );
    socket.once("connect", () => finish());
    socket.once("error", (error) => finish(error));
  });
}
