/** Accounts at the host's root (facts, "Accounts"): made, changed, renamed and deleted by slug. */
import { z } from "zod";
import type { ApiRequest, RequestFn } from "../client/http";
import { parseRecord } from "./records";

const text = z.string().nullable().optional();

export const managedAccountRecord = z.object({
  id: z.number().int(),
  account_id: z.string(),
  uname: text,
  name: z.string(),
  region: z.string(),
  location: text,
  billing_email: text,
  gravatar_email: text,
  role: text,
  owner_id: z.number().int().nullable().optional(),
  is_owner: z.boolean().optional(),
  public_key: text,
  tunnel_host: text,
  created_at: z.string(),
  updated_at: z.string(),
  url: text,
});
export type ManagedAccountRecord = z.output<typeof managedAccountRecord>;

const WHAT = "an account";
const accountPath = (slug: string) => `/accounts/${encodeURIComponent(slug)}`;

/** The caller's accounts, newest first: where a create whose outcome is unknown is looked for. */
export const newestAccountsRequest: ApiRequest = { method: "GET", path: "/accounts", atHostRoot: true, query: { sort: "created", direction: "desc" } };

/** Every account of the caller, oldest first. */
export const accountsListing: ApiRequest = { method: "GET", path: "/accounts", atHostRoot: true, query: { sort: "created", direction: "asc" } };

export async function createAccount(request: RequestFn, body: object): Promise<ManagedAccountRecord> {
  const response = await request({ method: "POST", path: "/accounts", atHostRoot: true, body });
  return parseRecord(managedAccountRecord, response.body, WHAT);
}

export async function getAccountBySlug(request: RequestFn, slug: string): Promise<ManagedAccountRecord> {
  const response = await request({ method: "GET", path: accountPath(slug), atHostRoot: true });
  return parseRecord(managedAccountRecord, response.body, WHAT);
}

/** A new `account_id` in the body renames the account: its `{base_url}` moves. */
export async function updateAccount(request: RequestFn, slug: string, body: object): Promise<ManagedAccountRecord> {
  const response = await request({ method: "PUT", path: accountPath(slug), atHostRoot: true, body });
  return parseRecord(managedAccountRecord, response.body, WHAT);
}

/** Irreversible, and the owner's alone: every record of the account goes with it. */
export async function deleteAccount(request: RequestFn, slug: string): Promise<void> {
  await request({ method: "DELETE", path: accountPath(slug), atHostRoot: true });
}
