/** The API version (spec 9) and the media type that pins it. */

export const API_VERSION = 2;

/** The vendor token the spec writes as `service`; a real deployment names its own. */
export const DEFAULT_VENDOR = "service";

/**
 * Sent as `Accept` exactly, and required verbatim: without it the service may route the request
 * elsewhere and answer 404, and near misses (a comma, no space) count as missing.
 */
export function versionedMediaType(vendor: string): string {
  return `application/vnd.${vendor}+json; version=${API_VERSION}`;
}

/** The media type of the spec's own wording, which the emulator speaks. */
export const API_MEDIA_TYPE = versionedMediaType(DEFAULT_VENDOR);
