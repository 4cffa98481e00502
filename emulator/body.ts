import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import { MAX_JSON_NESTING, MAX_REQUEST_BODY_BYTES } from "../contract/limits";
import { HttpError } from "./http";
import { jsonPath } from "./json-path";

/**
 * Request bodies, for every route: read as JSON (415, 413 or 400 when that fails), then a JSON
 * object or 400, then the route's zod schema or 422. Every problem reads the same way on every
 * route: the field's path as the client wrote it, then the rule it breaks (`nodes is required`,
 * `connections[0].id must be an integer`, `colour is not a known field`), all of them joined
 * with "; ". Schemas therefore word their rules after the field's name ("must be ...") and never
 * name the field themselves: the path is added here.
 */

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

const tooLarge = (): HttpError => new HttpError(413, `Request body is too large: the limit is ${MAX_REQUEST_BODY_BYTES} bytes.`);

/**
 * Reads the whole body, keeping at most MAX_REQUEST_BODY_BYTES. An oversized body is still drained
 * rather than cut off, so the client gets the 413 instead of a reset connection.
 */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  let oversized = Number.isFinite(declared) && declared > MAX_REQUEST_BODY_BYTES;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_REQUEST_BODY_BYTES) oversized = true;
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

/** Parses a JSON request body, or throws the HttpError (415, 413, 400) the client should see; control bodies too. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  checkJsonContentType(req.headers["content-type"]);
  const text = (await readBody(req)).toString("utf8");
  if (nestsDeeperThan(text, MAX_JSON_NESTING)) {
    throw new HttpError(400, `Request body is nested too deeply: arrays and objects may nest at most ${MAX_JSON_NESTING} levels.`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Request body is not valid JSON.");
  }
}

/** The fields a bodiless POST or PUT carried as form-style query parameters (form-query.ts). */
const FORM_BODIES = new WeakMap<IncomingMessage, Record<string, unknown>>();
/** For each such body, the names a client may have wrapped its fields in (`cluster[nodes]`). */
const FORM_OBJECT_NAMES = new WeakMap<object, readonly string[]>();

export function takeFormBody(req: IncomingMessage, body: Record<string, unknown>, objectNames: readonly string[]): void {
  FORM_BODIES.set(req, body);
  FORM_OBJECT_NAMES.set(body, objectNames);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A form body whose fields were wrapped in the object's name, unwrapped, when the schema has no
 * field of that name (a body the service itself wraps, like a connection group's, stays as sent).
 */
export function unwrappedForm(schema: z.ZodType, body: unknown): unknown {
  const names = isPlainObject(body) ? FORM_OBJECT_NAMES.get(body) : undefined;
  if (names === undefined || !isPlainObject(body)) return body;
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (shape === undefined) return body;
  const wrapper = names.find((name) => isPlainObject(body[name]) && !(name in shape));
  if (wrapper === undefined) return body;
  const { [wrapper]: wrapped, ...rest } = body;
  return { ...rest, ...(wrapped as Record<string, unknown>) };
}

/** Sending no body at all is how a client says "nothing to add", so it needs no Content-Type. */
export function hasNoBody(req: IncomingMessage): boolean {
  const { headers } = req;
  return headers["transfer-encoding"] === undefined && (headers["content-length"] === undefined || headers["content-length"] === "0");
}

export async function readObjectBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  // Set only for a request without a body (server.ts).
  const form = FORM_BODIES.get(req);
  if (form !== undefined) return form;
  const body = await readJsonBody(req);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, "Request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

/** For requests whose body may be left out: undefined when there is none. */
export async function readOptionalObjectBody(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  return hasNoBody(req) ? FORM_BODIES.get(req) : readObjectBody(req);
}

/** 422 listing each problem; routes use it for rules a schema cannot state (a name taken, a record missing). */
export function invalid(problems: string[]): HttpError {
  return new HttpError(422, problems.join("; "));
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  object: "an object",
  record: "an object",
  array: "an array",
};

/** zod's own issues, worded like every other rule; a schema's own message takes precedence. */
function ruleOf(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === "invalid_type") return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
  if (issue.code === "invalid_value") return `must be one of ${issue.values.join(", ")}`;
  return undefined;
}

function problemsOf(issue: z.core.$ZodIssue): string[] {
  if (issue.code === "unrecognized_keys") return issue.keys.map((key) => `${jsonPath([...issue.path, key])} is not a known field`);
  // A JSON body cannot hold undefined, so an undefined input is a field left out.
  const leftOut = (issue.code === "invalid_type" || issue.code === "invalid_value") && issue.input === undefined;
  const rule = leftOut ? "is required" : issue.message;
  return [issue.path.length === 0 ? rule : `${jsonPath(issue.path)} ${rule}`];
}

/** The body as the schema reads it, or 422 naming every problem. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(unwrappedForm(schema, body), { error: ruleOf, reportInput: true });
  if (result.success) return result.data;
  throw invalid(result.error.issues.flatMap(problemsOf));
}
