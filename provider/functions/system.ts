/**
 * Lookups a program fills inputs from (facts, "System information", "Users", "Accounts"): the
 * regions, stacks and time zones the service offers, its system variables, the current user and
 * account, and the calls left this hour.
 */
import { z } from "zod";
import * as api from "../api/system";
import { camelCased, type CamelCased } from "../api/records";
import { programFunction, type FunctionContext } from "./context";
import { REGION_TYPES, type RegionType } from "../../contract/catalogues";
import { parseArguments } from "./arguments";

export type RegionInfo = CamelCased<api.RegionRecord>;
export type StackInfo = api.NamedRecord;
export type TimeZoneInfo = api.NamedRecord;
/** The user the API key belongs to; the key itself is never part of it. */
export type CurrentUserInfo = CamelCased<Omit<api.UserRecord, "api_key">> & Record<string, unknown>;
export type AccountInfo = CamelCased<api.AccountRecord> & Record<string, unknown>;

export interface RateLimitStatus {
  /** Calls allowed per hour. */
  limit: number;
  /** Calls left in the current hour. */
  remaining: number;
}

export interface GetRegionsArgs {
  /** Only the regions of one connection type (`redshift`, `bigquery`, `s3`, `snowflake`, `athena`). */
  type?: RegionType;
  /** The regions this account may use for clusters, instead of every region. */
  account?: boolean;
}

const regionArgs = z
  .strictObject({
    type: z.enum(REGION_TYPES, { message: `must be one of ${REGION_TYPES.join(", ")}` }).optional(),
    account: z.boolean().optional(),
  })
  .refine((args) => !(args.account && args.type !== undefined), {
    message: "must not be given with account: the account's regions are not by type",
    path: ["type"],
  });

export const getRegions = programFunction(async function getRegions(ctx: FunctionContext, args: GetRegionsArgs = {}): Promise<RegionInfo[]> {
  const { type, account } = parseArguments("getRegions", regionArgs, args);
  const request = ctx.request;
  const regions = account ? await api.listAccountRegions(request) : await api.listRegions(request, type);
  return regions.map((region) => camelCased(region));
});

export const getStacks = programFunction(async function getStacks(ctx: FunctionContext): Promise<StackInfo[]> {
  return api.listStacks(ctx.request);
});

/** Ids such as `Pacific Time (US & Canada)`, the ones schedules and users take. */
export const getTimeZones = programFunction(async function getTimeZones(ctx: FunctionContext): Promise<TimeZoneInfo[]> {
  return api.listTimeZones(ctx.request);
});

/** System variables (`_DEFAULT_PARALLELISM`, ...) and their defaults, as the service lists them. */
export const getSystemVariables = programFunction(async function getSystemVariables(ctx: FunctionContext): Promise<Record<string, string | number>> {
  return api.getSystemVariables(ctx.request);
});

export const getCurrentUser = programFunction(async function getCurrentUser(ctx: FunctionContext): Promise<CurrentUserInfo> {
  const { api_key: _key, ...user } = (await api.getCurrentUser(ctx.request)) as api.UserRecord & { api_key?: unknown };
  return camelCased(user) as CurrentUserInfo;
});

/** The account the stack's `etl:accountId` names, with its counters and the caller's role. */
export const getAccount = programFunction(async function getAccount(ctx: FunctionContext): Promise<AccountInfo> {
  return camelCased(await api.getAccount(ctx.request, ctx.settings.accountId)) as AccountInfo;
});

/** Calls left this hour; asking costs none. */
export const getRateLimitStatus = programFunction(async function getRateLimitStatus(ctx: FunctionContext): Promise<RateLimitStatus> {
  const { limits } = await api.getRateLimitStatus(ctx.request);
  return { limit: limits.limit, remaining: limits.remaining };
});
