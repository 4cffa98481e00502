import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import { API_MEDIA_TYPE } from "../contract/media-type";

/** Responses and the errors that become responses, shared by every route; bodies are read in `body.ts`. */

/** The one media type of API version 2 (spec section 9), sent and required verbatim. */
export { API_MEDIA_TYPE };

/**
 * What must happen before a response leaves, set per request by the server: saving the state
 * that the response acknowledges, then sending it, dropping the connection instead, or holding
 * the answer back for a while (injected faults). Taken once, so an error response written after
 * a failing gate does not run it again.
 */
export type ResponseGate = () => "send" | "drop" | { holdMs: number };
const gates = new WeakMap<ServerResponse, ResponseGate>();

export function setResponseGate(res: ServerResponse, gate: ResponseGate): void {
  gates.set(res, gate);
}

function passGate(res: ServerResponse): "send" | "drop" | { holdMs: number } {
  const gate = gates.get(res);
  if (gate === undefined) return "send";
  gates.delete(res);
  const verdict = gate();
  if (verdict === "drop") res.socket?.destroy();
  return verdict;
}

/** Writes the answer once the gate lets it go: now, later, or never when the connection is dropped. */
function deliver(res: ServerResponse, status: number, write: () => void): void {
  const verdict = passGate(res);
  if (verdict === "drop") return;
  if (verdict !== "send") {
    // The status is known now, for the request log; the answer leaves later, if the client is still there.
    res.statusCode = status;
    setTimeout(() => res.destroyed || write(), verdict.holdMs);
    return;
  }
  write();
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  deliver(res, status, () => writeJson(res, status, body, headers));
}

/** 204, which has no body and so no Content-Type ("stop watching" is the service's one such answer). */
export function sendNoContent(res: ServerResponse): void {
  deliver(res, 204, () => {
    res.statusCode = 204;
    res.end();
  });
}

function writeJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", API_MEDIA_TYPE);
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) res.setHeader(name, value);
  }
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/** Error responses carry only `message` (spec section 2.8). */
export function sendError(res: ServerResponse, status: number, message: string, headers: OutgoingHttpHeaders = {}): void {
  sendJson(res, status, { message }, headers);
}

/** A failure that maps straight to an error response. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: OutgoingHttpHeaders = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const NOT_FOUND_MESSAGE = "Item not found.";

export function notFound(): HttpError {
  return new HttpError(404, NOT_FOUND_MESSAGE);
}
