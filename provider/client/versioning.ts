/** The API version this client speaks (spec 9). */
export const API_VERSION = 2;

/**
 * The media type that pins the version, sent as `Accept` exactly: without it the service may
 * route the request elsewhere and answer 404, and near misses (a comma, no space) count as
 * missing.
 */
export function versionedMediaType(vendor: string): string {
  return `application/vnd.${vendor}+json; version=${API_VERSION}`;
}
