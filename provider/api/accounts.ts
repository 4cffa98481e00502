/** Accounts at the host's root (facts, "Accounts"): made, changed, renamed and deleted by slug. */
import { z } from "zod";
import type { ApiRequest } from "../client/http";
import { collection } from "./collection";

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

/** The caller's accounts, newest first: where a create whose outcome is unknown is looked for. */
export const newestAccountsRequest: ApiRequest = { method: "GET", path: "/accounts", atHostRoot: true, query: { sort: "created", direction: "desc" } };

/** Every account of the caller, oldest first. */
export const accountsListing: ApiRequest = { method: "GET", path: "/accounts", atHostRoot: true, query: { sort: "created", direction: "asc" } };

/** Addressed by slug. */
export const accounts = collection<typeof managedAccountRecord, object, object, string>({
  path: "/accounts",
  atHostRoot: true,
  record: managedAccountRecord,
  what: "an account",
});

/**
 * `updateAccount`: a new `account_id` in the body renames the account, and its `{base_url}`
 * moves. `deleteAccount` is irreversible, and the owner's alone: every record of the account goes with it.
 */
export const { create: createAccount, get: getAccountBySlug, update: updateAccount, delete: deleteAccount } = accounts;
