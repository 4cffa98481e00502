import {
  CLUSTER_REGIONS,
  isRegionType,
  REGION_TYPES,
  regionsServing,
  STACKS,
  SYSTEM_VARIABLES,
  TIME_ZONES,
  type RegionEntry,
  type RegionType,
} from "../../../contract/catalogues";
import { invalid } from "../../body";
import { sendJson } from "../../http";
import type { ApiContext, Route } from "../../routing";

/**
 * System information (facts, "System information"): read-only catalogues, from
 * `contract/catalogues.ts`, the same for every account; and the caller's credit allowance.
 * Regions, time zones and variables are at the host root, as the service's own client builds
 * them; the account's regions, stacks and the allowance are below `{base_url}`.
 */

function regionJson(region: RegionEntry): Record<string, string> {
  return { id: region.id, name: region.name, short_name: region.short_name, group_name: region.group_name };
}

function checkedType(text: string): RegionType {
  if (!isRegionType(text)) throw invalid([`type must be one of ${REGION_TYPES.join(", ")}`]);
  return text;
}

/**
 * The type from the path (`/regions/s3`) or the query (`?type=s3`); both may be given when
 * they agree. An unknown type is a 422 naming the field, in either place.
 */
function requestedType(ctx: ApiContext): RegionType | undefined {
  const fromPath = ctx.params[0] === undefined ? undefined : checkedType(ctx.params[0]);
  const query = ctx.query.get("type");
  const fromQuery = query === null ? undefined : checkedType(query);
  if (fromPath !== undefined && fromQuery !== undefined && fromPath !== fromQuery) {
    throw invalid([`type is ${fromPath} in the path and ${fromQuery} in the query; give one`]);
  }
  return fromPath ?? fromQuery;
}

function listRegions(ctx: ApiContext): void {
  sendJson(ctx.res, 200, regionsServing(requestedType(ctx)).map(regionJson));
}

/** Every account may run clusters in the same regions: the fixtures give accounts no region of their own. */
function listAccountRegions(ctx: ApiContext): void {
  sendJson(ctx.res, 200, CLUSTER_REGIONS.map(regionJson));
}

function listStacks(ctx: ApiContext): void {
  sendJson(ctx.res, 200, STACKS);
}

function listTimeZones(ctx: ApiContext): void {
  sendJson(
    ctx.res,
    200,
    TIME_ZONES.map(({ id, name }) => ({ id, name })),
  );
}

function showVariables(ctx: ApiContext): void {
  sendJson(ctx.res, 200, SYSTEM_VARIABLES);
}

/** The allowance as it stands after this call, which cost nothing (facts, section 0). */
function showRateLimitStatus(ctx: ApiContext): void {
  sendJson(ctx.res, 200, { limits: { limit: ctx.credits.limit, remaining: ctx.credits.remaining } });
}

export const systemRoutes: readonly Route[] = [
  { pattern: /^\/regions$/, methods: { GET: listAccountRegions } },
  { pattern: /^\/stacks$/, methods: { GET: listStacks } },
  // Free, so a client whose allowance is used up can still learn when to resume.
  { pattern: /^\/rate_limit_status$/, methods: { GET: showRateLimitStatus }, free: true },
];

export const systemRootRoutes: readonly Route[] = [
  { pattern: /^\/regions$/, methods: { GET: listRegions } },
  { pattern: /^\/regions\/([^/]+)$/, methods: { GET: listRegions } },
  { pattern: /^\/timezones$/, methods: { GET: listTimeZones } },
  { pattern: /^\/variables$/, methods: { GET: showVariables } },
];
