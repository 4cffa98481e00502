/**
 * Checks an API record against its schema, so a response that breaks the interface becomes a
 * clear error instead of wrong values in state.
 */
import type { z } from "zod";

export class UnexpectedResponseError extends Error {
  constructor(what: string, problems: string) {
    super(`the service returned ${what} that does not match the API: ${problems}`);
    this.name = "UnexpectedResponseError";
  }
}

export function parseRecord<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join(".") || "body"}: ${issue.message}`)
    .join("; ");
  throw new UnexpectedResponseError(what, problems);
}
