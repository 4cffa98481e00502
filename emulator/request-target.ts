import { HttpError } from "./http";

/**
 * The request target, read as the client sent it. URL parsing resolves dot segments (also
 * percent-encoded ones, and with `\` taken for `/`), so `/acme-data/api/../../_emulator/state`
 * would become a control path. The decision is therefore taken on the raw target, before any
 * normalisation: a target with dot segments is refused, never resolved.
 */

const PARSE_BASE = "http://emulator.invalid";

export const DOT_SEGMENT_MESSAGE = 'Bad request: the request path must not contain "." or ".." segments.';
export const INVALID_TARGET_MESSAGE = "Bad request: the request target is not a valid URL.";

/** `.`, `..`, `%2e`, `.%2E`, …: every spelling a URL parser treats as a dot segment. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * The path part of the target (before `?` or `#`) has a dot segment. Tabs and line breaks go
 * first, as a URL parser drops them, and `\` separates segments, as it does in http URLs.
 */
function hasDotSegment(target: string): boolean {
  const path = target.replace(/[\t\n\r]/g, "").split(/[?#]/, 1)[0]!;
  return path.split(/[/\\]/).some((segment) => DOT_SEGMENT.test(segment));
}

/**
 * The target as a URL, or a 400 HttpError. Origin-form targets are prefixed rather than
 * resolved, so `//x` stays a path, not a host.
 */
export function parseRequestTarget(target: string | undefined): URL {
  const raw = target ?? "/";
  if (hasDotSegment(raw)) throw new HttpError(400, DOT_SEGMENT_MESSAGE);
  try {
    return raw.startsWith("/") ? new URL(`${PARSE_BASE}${raw}`) : new URL(raw, PARSE_BASE);
  } catch {
    throw new HttpError(400, INVALID_TARGET_MESSAGE);
  }
}
