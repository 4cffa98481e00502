import { z } from "zod";
import { accountSlugProblem, MAX_ACCOUNT_SLUG_LENGTH, RESERVED_ACCOUNT_SLUGS } from "../../../contract/accounts";
import { isKnownRegion } from "../../../contract/catalogues";
import { invalid } from "../../body";
import { label, nullableText } from "../../fields";
import type { AccountRecord, Store } from "../../store";

/**
 * What a request may set of an account (facts, "Accounts"), and the rules of its slug, the
 * `account_id` every `{base_url}` starts with.
 */

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
  return store.accounts().some((account) => account !== except && account.uid.toLowerCase() === lower);
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
export function changedFields(account: AccountRecord, body: AccountChange): Partial<AccountRecord> {
  return {
    uid: body.account_id ?? account.uid,
    name: body.name ?? account.name,
    region: body.region ?? account.region,
    ...(body.location === undefined ? {} : { location: body.location }),
    ...(body.billing_email === undefined ? {} : { billingEmail: body.billing_email }),
    ...(body.gravatar_email === undefined ? {} : { gravatarEmail: body.gravatar_email }),
  };
}
