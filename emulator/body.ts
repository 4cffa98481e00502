import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import { HttpError, readJsonBody } from "./http";

/**
 * Request bodies of every route: a JSON object or 400, then the route's schema or 422 with every
 * problem, joined with "; ".
 */

export async function readObjectBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await readJsonBody(req);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, "Request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

/** 422 listing each problem. */
export function invalid(problems: string[]): HttpError {
  return new HttpError(422, problems.join("; "));
}

export interface BodyWording {
  /** Replaces zod's own message for an issue, when it returns one. */
  error?: (issue: z.core.$ZodRawIssue) => string | undefined;
  /** The problems one issue stands for; by default its message. */
  problems?: (issue: z.core.$ZodIssue) => string[];
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown, wording: BodyWording = {}): z.output<S> {
  const result = wording.error === undefined ? schema.safeParse(body) : schema.safeParse(body, { error: wording.error });
  if (result.success) return result.data;
  throw invalid(result.error.issues.flatMap(wording.problems ?? ((issue) => [issue.message])));
}
