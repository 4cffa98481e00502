import { z } from "zod";
import { accountSlugProblem, MAX_ACCOUNT_SLUG_LENGTH, RESERVED_ACCOUNT_SLUGS } from "../../../contract/accounts";
import { isKnownRegion } from "../../../contract/catalogues";
import { invalid } from "../../body";
import { label, nullableText } from "../../fields";
import { defineTable, type Row, type Store } from "../../store";

/**
 * Accounts (facts, "Accounts"): the record, what a request may set of it, and the rules of its
 * slug, the `account_id` every `{base_url}` starts with. An account's row belongs to the account
 * itself (`accountId` is its own id), so deleting the account's rows deletes it too.
 */

export interface AccountRecord extends Row {
  uid: string;
  name: string;
  /** Region id, e.g. `amazon-web-services::us-east-1` (facts, "System information"). */
  region: string;
  /** Billing information on file; without it job runs are refused with 402. */
  billing: boolean;
  createdAt: string;
  updatedAt: string;
  /** Set through `PUT {host}/accounts/:id`; left out until then, null once cleared. */
  location?: string | null;
  /** Left out: the owner's email is shown. */
  billingEmail?: string | null;
  gravatarEmail?: string | null;
}

export const ACCOUNTS = defineTable<AccountRecord>("accounts");

/** An account of the fixtures, with the id they give it. */
export function addAccount(store: Store, account: Omit<AccountRecord, "accountId">): AccountRecord {
  return store.insert(ACCOUNTS, { ...account, accountId: account.id });
}

/** An account made through the API: the next id, never one a deleted account had. */
export function createAccount(store: Store, fields: Omit<AccountRecord, "id" | "accountId">): AccountRecord {
  return addAccount(store, { ...fields, id: store.nextId(ACCOUNTS) });
}

/** Applies changes in place; a new `uid` moves the account to it. */
export function updateAccount(store: Store, account: AccountRecord, changes: Partial<Omit<AccountRecord, "id" | "accountId">>): AccountRecord {
  return store.update(ACCOUNTS, account, changes);
}

/** The account and every row of it, in every table; its users stay, as people outlive accounts. */
export function removeAccount(store: Store, account: AccountRecord): void {
  store.removeAccountRows(account.id);
}

/** Every account, by id. */
export function allAccounts(store: Store): AccountRecord[] {
  return store.list(ACCOUNTS);
}

export function accountByUid(store: Store, uid: string): AccountRecord | undefined {
  return allAccounts(store).find((account) => account.uid === uid);
}

export function accountById(store: Store, id: number): AccountRecord | undefined {
  return store.find(ACCOUNTS, id, id);
}

const MAX_SLUG_LENGTH = MAX_ACCOUNT_SLUG_LENGTH;
const RESERVED_SLUGS: ReadonlySet<string> = new Set(RESERVED_ACCOUNT_SLUGS);

/** The contract's rule, the one the provider checks inputs against too. */
const slug = () =>
  z.string().superRefine((text, ctx) => {
    const problem = accountSlugProblem(text);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  });

const region = () => z.string().refine((id) => isKnownRegion(id), "must be a region id of GET /regions, e.g. amazon-web-services::us-east-1");

const email = () => z.email({ error: "must be an email address" });

export const createSchema = z.strictObject({
  name: label(),
  region: region(),
  account_id: slug().optional(),
});

export const changeSchema = z.strictObject({
  account_id: slug().optional(),
  name: label().optional(),
  location: nullableText().optional(),
  region: region().optional(),
  billing_email: email().nullable().optional(),
  gravatar_email: email().nullable().optional(),
});

export type AccountChange = z.output<typeof changeSchema>;

/** Slugs differing only in case would name two accounts by paths people read as one. */
function slugTaken(store: Store, wanted: string, except?: AccountRecord): boolean {
  const lower = wanted.toLowerCase();
  return allAccounts(store).some((account) => account !== except && account.uid.toLowerCase() === lower);
}

/** 422 naming `account_id` when another account has the slug. */
export function requireFreeSlug(store: Store, wanted: string, except?: AccountRecord): void {
  if (slugTaken(store, wanted, except)) throw invalid([`account_id ${wanted} is already taken`]);
}

/** A slug made from the name when none is asked for: `Data Team` is `data-team`, else `data-team-2`, … */
export function slugFromName(store: Store, name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, MAX_SLUG_LENGTH - 4)
    .replace(/^-+|-+$/g, "");
  const stem = base === "" || RESERVED_SLUGS.has(base) ? "account" : base;
  let candidate = stem;
  for (let n = 2; slugTaken(store, candidate); n++) candidate = `${stem}-${n}`;
  return candidate;
}

/** The record's fields as the body sets them; what it leaves out stays. */
export function changedFields(account: AccountRecord, body: AccountChange): Partial<Omit<AccountRecord, "id" | "accountId">> {
  return {
    uid: body.account_id ?? account.uid,
    name: body.name ?? account.name,
    region: body.region ?? account.region,
    ...(body.location === undefined ? {} : { location: body.location }),
    ...(body.billing_email === undefined ? {} : { billingEmail: body.billing_email }),
    ...(body.gravatar_email === undefined ? {} : { gravatarEmail: body.gravatar_email }),
  };
}
