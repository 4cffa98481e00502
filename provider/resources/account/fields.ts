/**
 * Account's fields. Everything updates in place with a PUT; a new `slug` renames the account,
 * moving its `{base_url}`. Left out, the slug is the service's choice (made from the name) and
 * not managed. The optional settings, left out, are the service's and not managed either.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ManagedAccountRecord } from "../../api/accounts";
import { accountSlugProblem } from "../../../contract/accounts";
import { isKnownRegion } from "../../../contract/catalogues";
import { describeGiven, labelText } from "../shared/check";
import { fieldOperations, takes, output, OUTPUT, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";

const slug = z.string().superRefine((value, ctx) => {
  const problem = accountSlugProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: `${problem}, got ${describeGiven(value)}` });
});

const region = z.string().superRefine((value, ctx) => {
  if (!isKnownRegion(value))
    ctx.addIssue({ code: "custom", message: `must be a region id such as "amazon-web-services::us-east-1" (see getRegions), got ${describeGiven(value)}` });
});

/** An existing account is named by its slug, as its paths are. */
const accountImportId = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const text = String(value).trim();
  const problem = accountSlugProblem(text);
  if (problem === undefined) return text;
  ctx.addIssue({ code: "custom", message: `must be the slug of an existing account (its id in API paths), which ${problem}` });
  return z.NEVER;
});

const email = z
  .string()
  .trim()
  .pipe(z.email({ message: 'must be an email address such as "billing@example.com"' }));

const table = {
  /** The account's name. */
  name: { input: labelText(), required: true, api: "name", onChange: "update" },
  /** Where the account's data lives: a region id such as `amazon-web-services::us-east-1` (`getRegions`). */
  region: { input: region, required: true, api: "region", onChange: "update" },
  /**
   * The account's id in API paths (`etl:accountId` of a provider for it). Left out, the service
   * makes one from the name and Pulumi leaves it alone. Changing it renames the account: every
   * provider pointed at the old id must take the new one (use this resource's `slug` output).
   */
  slug: { input: slug, unmanagedWhenOmitted: true, api: "account_id", onChange: "update" },
  /** Where the team is, as the account shows it. */
  location: { input: labelText(), unmanagedWhenOmitted: true, api: "location", onChange: "update", read: (r) => r.location ?? undefined },
  /** Where invoices go; left out, the owner's address. */
  billingEmail: { input: email, unmanagedWhenOmitted: true, api: "billing_email", onChange: "update", read: (r) => r.billing_email ?? undefined },
  /** The address whose Gravatar picture the account shows. */
  gravatarEmail: { input: email, unmanagedWhenOmitted: true, api: "gravatar_email", onChange: "update", read: (r) => r.gravatar_email ?? undefined },
  /** The slug of an existing account of the caller's to manage instead of creating one. */
  importId: { program: takes<pulumi.Input<string | number>>(), input: accountImportId },
  number: { description: "The account's number, which a rename keeps (the resource's id too).", read: (r) => r.id },
  uname: { description: "The account's user name, `u_<id>`.", read: (r) => r.uname ?? undefined },
  role: { description: "The caller's role in the account.", read: (r) => r.role ?? undefined },
  ownerId: { description: "The user id of the account's owner.", read: (r) => r.owner_id ?? undefined },
  isOwner: { description: "Whether the caller owns the account (only the owner can delete it).", read: (r) => r.is_owner ?? false },
  userId: {
    description:
      "The user whose API key last reached the account. The service shows an account to its members only, so under a non-member's key the account stops every operation, naming this user, rather than counting as deleted.",
    read: (r) => (r.is_owner === true ? (r.owner_id ?? undefined) : undefined),
  },
  publicKey: { description: "The account's own SSH public key, made when the account was.", read: (r) => r.public_key ?? undefined },
  tunnelHost: { description: "The host the account's tunnels reach.", read: (r) => r.tunnel_host ?? undefined },
  url: output("The account's address in the API."),
  createdAt: OUTPUT,
  updatedAt: OUTPUT,
} satisfies Record<string, Field<ManagedAccountRecord>>;

/** What a program passes. */
export type AccountArgs = ArgsOf<typeof table>;

export const tableOperations = fieldOperations<ManagedAccountRecord, typeof table>(table);

export type AccountInputs = InputsOf<typeof table>;
export type AccountOutputs = OutputsOf<typeof table, ManagedAccountRecord>;
