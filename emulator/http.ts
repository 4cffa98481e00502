import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { API_MEDIA_TYPE } from "../contract/media-type";

/** Request and response helpers shared by every route. */

/** The one media type of API version 2 (spec section 9), sent and required verbatim. */
export { API_MEDIA_TYPE };

/** Request bodies are small JSON objects; anything larger is a client bug or abuse. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * No valid request nests anywhere near this deep. Deeper values are refused before any code
 * walks them: recursive validation or printing of one could overflow the stack.
 */
export const MAX_JSON_DEPTH = 64;

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

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  const verdict = passGate(res);
  if (verdict === "drop") return;
  if (verdict !== "send") {
    // The status is known now, for the request log; the answer leaves later, if the client is still there.
    res.statusCode = status;
    setTimeout(() => res.destroyed || writeJson(res, status, body, headers), verdict.holdMs);
    return;
  }
  writeJson(res, status, body, headers);
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
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: OutgoingHttpHeaders = {},
): void {
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

/** `application/json`, optionally with a UTF-8 charset: JSON has no other encoding (RFC 8259). */
function checkJsonContentType(header: string | undefined): void {
  const [mediaType, ...params] = (header ?? "").split(";").map((part) => part.trim().toLowerCase());
  if (mediaType !== "application/json") {
    throw new HttpError(415, "Unsupported media type: request bodies must be sent with Content-Type: application/json");
  }
  for (const param of params) {
    const [name, value] = param.split("=").map((part) => part.trim().replace(/^"(.*)"$/, "$1"));
    if (name === "charset" && value !== "utf-8" && value !== "utf8") {
      throw new HttpError(415, "Unsupported media type: the Content-Type charset must be utf-8");
    }
  }
}

const tooLarge = (): HttpError =>
  new HttpError(413, `Request body is too large: the limit is ${MAX_BODY_BYTES} bytes.`);

/**
 * Reads the whole body, keeping at most MAX_BODY_BYTES. An oversized body is still drained
 * rather than cut off, so the client gets the 413 instead of a reset connection.
 */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  let oversized = Number.isFinite(declared) && declared > MAX_BODY_BYTES;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) oversized = true;
    if (!oversized) chunks.push(buffer);
  }
  if (oversized) throw tooLarge();
  return Buffer.concat(chunks);
}

/**
 * Whether arrays and objects in JSON `text` nest deeper than `limit`. Counted on the text,
 * without recursion and before parsing, so a deep body costs one linear scan and nothing more.
 */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "[" || char === "{") {
      if (++depth > limit) return true;
    } else if (char === "]" || char === "}") depth--;
  }
  return false;
}

/** Parses a JSON request body, or throws the HttpError (415, 413, 400) the client should see. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  checkJsonContentType(req.headers["content-type"]);
  const text = (await readBody(req)).toString("utf8");
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new HttpError(400, `Request body is nested too deeply: arrays and objects may nest at most ${MAX_JSON_DEPTH} levels.`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Request body is not valid JSON.");
  }
}
