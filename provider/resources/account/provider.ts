/**
 * Account: made, changed and renamed with its fields; deleted by its owner only, which takes
 * every record of the account with it. The resource's id is the account's number, which a rename
 * keeps; its calls go to the slug the state holds, and an account renamed out of band is found
 * again by its number among the caller's accounts.
 */
import {
  accountsListing,
  createAccount,
  deleteAccount,
  getAccountBySlug,
  managedAccountRecord,
  newestAccountsRequest,
  updateAccount,
  type ManagedAccountRecord,
} from "../../api/accounts";
import { NotFoundError } from "../../client/errors";
import type { RequestFn } from "../../client/http";
import { collectAllPages } from "../../client/pagination";
import type { OperationContext } from "../../context";
import { adoptionChange, objectToAdopt } from "../shared/adopt";
import { ResourceFailure } from "../shared/failures";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { createdInWindow, createdSince } from "../shared/reconcile";
import { ANY_OWNER, type OwnerCheck } from "../shared/reconciler";
import { fields, type AccountInputs, type AccountOutputs } from "./fields";

const KIND = "account";

/** The account with this number among the caller's, if any. */
async function accountNumbered(request: RequestFn, id: string): Promise<ManagedAccountRecord | undefined> {
  const all = await collectAllPages(request, accountsListing, managedAccountRecord, { what: "accounts" });
  return all.find((account) => String(account.id) === id);
}

function noAccountNumbered(id: string): NotFoundError {
  const request = { method: "GET", url: "/accounts", headers: {} };
  return new NotFoundError({ status: 404, request, serviceMessage: `no account numbered ${id} among the caller's accounts` });
}

/** By the slug the state holds; renamed out of band (or imported by number alone), by its number. */
async function getAccount(request: RequestFn, id: string, props: AccountOutputs): Promise<ManagedAccountRecord> {
  if (props.slug === undefined) return (await accountNumbered(request, id)) ?? Promise.reject(noAccountNumbered(id));
  try {
    return await getAccountBySlug(request, props.slug);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return (await accountNumbered(request, id)) ?? Promise.reject(error);
  }
}

async function update(ctx: OperationContext, _id: string, olds: AccountOutputs, news: AccountInputs): Promise<AccountOutputs> {
  return fields.updated(olds, news, (body) => updateAccount(ctx.request, olds.slug, body));
}

async function adopt(ctx: OperationContext, importId: string, inputs: AccountInputs): Promise<AccountOutputs> {
  const record = await objectToAdopt(KIND, importId, () => getAccountBySlug(ctx.request, importId));
  return adoptionChange(KIND, importId, () => update(ctx, String(record.id), fields.outputs(record, inputs), inputs));
}

/** What `POST {host}/accounts` takes (facts, "Accounts"); the rest of the inputs are set by a PUT after it. */
const CREATE_FIELDS = ["name", "region", "account_id"] as const;

function createWith(request: RequestFn, body: Record<string, unknown>): Promise<ManagedAccountRecord> {
  return createAccount(request, Object.fromEntries(CREATE_FIELDS.filter((name) => body[name] !== undefined).map((name) => [name, body[name]])));
}

/** The made account brought to the inputs the create could not send (location, emails): one PUT, or none. */
async function settle(ctx: OperationContext, record: ManagedAccountRecord, inputs: AccountInputs): Promise<AccountOutputs> {
  return fields.updated(fields.outputs(record, inputs), inputs, (body) => updateAccount(ctx.request, record.account_id, body));
}

/** Only the owner may delete an account: anyone else is told so before anything is sent. */
async function remove(ctx: OperationContext, id: string, props: AccountOutputs): Promise<void> {
  if (props.isOwner === false) {
    throw new ResourceFailure(
      `account ${props.slug} (${id}) can be deleted by its owner only, and these settings' user is not its owner: ` +
        "have the owner delete it, or drop it from the stack with `pulumi state delete`",
    );
  }
  await deleteAccount(ctx.request, props.slug);
}

/**
 * Whether a create sent at `sentAt` may have made this account: made since then, owned by the
 * caller, with what the POST sent (the PUT of the rest may not have come).
 */
export function isAccountCreatedBy(record: ManagedAccountRecord, inputs: AccountInputs, sentAt: number, owners: OwnerCheck = ANY_OWNER): boolean {
  const owned = record.is_owner !== false && (record.owner_id === undefined || record.owner_id === null || owners.ownerMatches(record.owner_id));
  const posted: AccountInputs = { name: inputs.name, region: inputs.region, ...(inputs.slug === undefined ? {} : { slug: inputs.slug }) };
  return createdInWindow(record.created_at, sentAt) && owned && fields.hasSentValues(record, posted);
}

export async function findCreatedAccount(
  request: RequestFn,
  inputs: AccountInputs,
  sentAt: number,
  owners: OwnerCheck = ANY_OWNER,
): Promise<ManagedAccountRecord[]> {
  const recent = await createdSince(request, newestAccountsRequest, managedAccountRecord, "accounts", sentAt, (record) => record.created_at);
  return recent.filter((record) => isAccountCreatedBy(record, inputs, sentAt, owners));
}

export const accountProvider = {
  ...standardOperations(fields, {
    kind: KIND,
    create: (request, body) => createWith(request, body as Record<string, unknown>),
    findCreated: findCreatedAccount,
    get: getAccount,
    remove,
    update,
    settle,
    adopt,
    // The slug names the adopted account; the resource's id is its number.
    adoptedId: (outs) => String(outs.number),
  }),
} satisfies ResourceImplementation<AccountInputs, AccountOutputs>;
