/**
 * What the service tells about itself and the caller (facts, "System information", "Users",
 * "Accounts"): catalogues, the current user and account, and the caller's remaining allowance.
 * Several live at the host's root rather than under `{base_url}`.
 */
import { z } from "zod";
import type { RequestFn } from "../client/http";
import { parseRecord } from "./records";

const text = z.string().nullable().optional();

export const regionRecord = z.object({ id: z.string(), name: z.string(), short_name: text, group_name: text });
export type RegionRecord = z.output<typeof regionRecord>;

export const namedRecord = z.object({ id: z.string(), name: z.string() });
export type NamedRecord = z.output<typeof namedRecord>;

/** The caller, without the API key (the service shows it only to someone giving the password). */
export const userRecord = z.looseObject({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string(),
  time_zone: text,
  confirmed: z.boolean().optional(),
  created_at: text,
  updated_at: text,
});
export type UserRecord = z.output<typeof userRecord>;

export const accountRecord = z.looseObject({
  id: z.union([z.number().int(), z.string()]),
  account_id: z.string(),
  name: z.string().nullable(),
  region: text,
  role: text,
  owner_id: z.number().int().nullable().optional(),
  is_owner: z.boolean().optional(),
  created_at: text,
  updated_at: text,
});
export type AccountRecord = z.output<typeof accountRecord>;

export const rateLimitRecord = z.object({ limits: z.object({ limit: z.number().int(), remaining: z.number().int() }) });
export type RateLimitRecord = z.output<typeof rateLimitRecord>;

/** Every region, or those that serve one connection type (`redshift`, `snowflake`, ...). */
export async function listRegions(request: RequestFn, type?: string): Promise<RegionRecord[]> {
  const path = type === undefined ? "/regions" : `/regions/${encodeURIComponent(type)}`;
  const response = await request({ method: "GET", path, atHostRoot: true });
  return parseRecord(z.array(regionRecord), response.body, "the regions");
}

/** The regions the account may use for its clusters. */
export async function listAccountRegions(request: RequestFn): Promise<RegionRecord[]> {
  const response = await request({ method: "GET", path: "/regions" });
  return parseRecord(z.array(regionRecord), response.body, "the account's regions");
}

export async function listStacks(request: RequestFn): Promise<NamedRecord[]> {
  const response = await request({ method: "GET", path: "/stacks" });
  return parseRecord(z.array(namedRecord), response.body, "the stacks");
}

export async function listTimeZones(request: RequestFn): Promise<NamedRecord[]> {
  const response = await request({ method: "GET", path: "/timezones", atHostRoot: true });
  return parseRecord(z.array(namedRecord), response.body, "the time zones");
}

/** The system variables and their defaults: numbers, or expressions as text. */
export async function getSystemVariables(request: RequestFn): Promise<Record<string, string | number>> {
  const response = await request({ method: "GET", path: "/variables", atHostRoot: true });
  return parseRecord(z.record(z.string(), z.union([z.string(), z.number()])), response.body, "the system variables");
}

export async function getCurrentUser(request: RequestFn): Promise<UserRecord> {
  const response = await request({ method: "GET", path: "/user", atHostRoot: true });
  return parseRecord(userRecord, response.body, "the current user");
}

export async function getAccount(request: RequestFn, accountId: string): Promise<AccountRecord> {
  const response = await request({ method: "GET", path: `/accounts/${encodeURIComponent(accountId)}`, atHostRoot: true });
  return parseRecord(accountRecord, response.body, "the account");
}

/** Costs no credit: how many calls the caller has left this hour. */
export async function getRateLimitStatus(request: RequestFn): Promise<RateLimitRecord> {
  const response = await request({ method: "GET", path: "/rate_limit_status" });
  return parseRecord(rateLimitRecord, response.body, "the rate limit status");
}
