/**
 * The `Accept` header the API answers (spec section 9), read as leniently as the real service
 * reads it: the media type with its `version` parameter after a `;` (the spec's form, spaces
 * optional) or after a space alone, as older clients send it. Anything else (no header, a
 * comma, another vendor or version) is not this API.
 */
import { API_VERSION, DEFAULT_VENDOR } from "../contract/media-type";

const ACCEPTED = new RegExp(`^application/vnd\\.${DEFAULT_VENDOR}\\+json(?: *; *| +)version=${API_VERSION}$`);

export function acceptsThisApi(header: string | undefined): boolean {
  return header !== undefined && ACCEPTED.test(header.trim());
}
