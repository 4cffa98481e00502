import { STATUS_CODES, type IncomingMessage, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { API_MEDIA_TYPE } from "./http";

/**
 * Clients that misbehave at the connection level: requests the HTTP parser cannot read, and
 * clients that hang up before their answer. Neither is the emulator's fault, so neither may
 * crash it or fill its stderr with stack traces.
 */

/** Errors that mean the client went away: nothing to answer, nothing worth a stack trace. */
const CLIENT_GONE_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "ERR_STREAM_PREMATURE_CLOSE"]);

const MAX_REPORTED_PATH = 200;

export function isClientGone(error: unknown): boolean {
  return error instanceof Error && CLIENT_GONE_CODES.has((error as NodeJS.ErrnoException).code ?? "");
}

/** One line naming the request; the query is left out, it may hold anything the client sent. */
export function reportClientGone(req: IncomingMessage): void {
  const path = (req.url ?? "/").split("?", 1)[0]!.slice(0, MAX_REPORTED_PATH);
  process.stderr.write(`etl-emulator: client closed the connection before the response (${req.method ?? "GET"} ${path})\n`);
}

/** What a request the parser rejected gets, by the parser's error code. */
function unreadableAnswer(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return { status: 431, message: "Request header fields are too large." };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, message: "Request timeout: the request did not arrive in time." };
    default:
      return { status: 400, message: "Bad request: the request is not valid HTTP/1.1." };
  }
}

/** There is no response object for such a request, so the answer is written on the socket. */
function rawErrorResponse(status: number, message: string): string {
  const body = JSON.stringify({ message });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    `Content-Type: ${API_MEDIA_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
  ];
  return `${head.join("\r\n")}\r\n\r\n${body}`;
}

/**
 * Answers unreadable requests with a JSON error, as every other error is answered, and drops
 * connections whose client is gone without a word. While a response is under way on the
 * connection, writing another one would corrupt it, so the connection is only closed.
 */
export function handleClientErrors(server: Server): void {
  const responding = new WeakMap<object, number>();
  server.on("request", (req: IncomingMessage, res) => {
    const socket = req.socket;
    responding.set(socket, (responding.get(socket) ?? 0) + 1);
    res.once("close", () => responding.set(socket, (responding.get(socket) ?? 1) - 1));
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!isClientGone(error) && socket.writable && (responding.get(socket) ?? 0) === 0) {
      const { status, message } = unreadableAnswer(error.code);
      socket.write(rawErrorResponse(status, message));
    }
    socket.destroy();
  });
}
