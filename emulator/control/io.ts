import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError, sendJson } from "../http";

/**
 * Reading control request bodies and writing control answers. Body values come from anyone
 * who can reach the port, so messages describe a rejected value briefly instead of echoing it:
 * a huge or deeply nested value would make the answer huge, or overflow the stack while being
 * printed.
 */

export type Endpoint = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Control paths and their methods, e.g. `"/faults": { GET, PUT, DELETE }`. */
export type ControlRoutes = Record<string, Record<string, Endpoint>>;

/** Control answers are plain JSON, errors included: they serve harnesses, not API clients. */
export const CONTROL_JSON_HEADERS = { "Content-Type": "application/json" };

export function sendControlJson(res: ServerResponse, status: number, body: unknown): void {
  sendJson(res, status, body, CONTROL_JSON_HEADERS);
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);

const MAX_QUOTED_LENGTH = 40;

/** `"503"`, `500`, `null`, `an array`, `a string of 5000 characters`: never the whole value. */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") {
    return value.length <= MAX_QUOTED_LENGTH ? JSON.stringify(value) : `a string of ${value.length} characters`;
  }
  return String(value);
}

function shortName(name: string): string {
  return name.length <= MAX_QUOTED_LENGTH ? name : `${name.slice(0, MAX_QUOTED_LENGTH)}…`;
}

/**
 * The fields of a body that must be a JSON object naming only `allowed` fields; `what` names
 * one of them in the message about another field, e.g. "a fault setting".
 */
export function readFields(body: unknown, allowed: readonly string[], what: string): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest("the body must be a JSON object");
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((name) => !allowed.includes(name));
  if (unknown !== undefined) throw badRequest(`${shortName(unknown)} is not ${what}; expected ${allowed.join(", ")}`);
  return fields;
}
