/**
 * Account: made, changed and renamed with its fields; deleted by its owner only, which takes
 * every record of the account with it. The resource's id is the account's number, which a rename
 * keeps; its calls go to the slug the state holds, and an account renamed out of band is found
 * again by its number among the caller's accounts, for a read and for a delete alike.
 *
 * The service answers 404 for an account the caller is not a member of, exactly as for one that
 * does not exist. So an account records the user whose key last reached it (`userId`), and when
 * the settings' user is another one who cannot see it, every operation stops with what to do:
 * nothing is dropped from the state, and no delete is reported that did not happen.
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
import type { OperationContext, SettingsUse } from "../../context";
import { adoptionChange, objectToAdopt } from "../shared/adopt";
import { currentUser, currentUserId } from "../shared/current-user";
import type { DetailedDiffResult } from "../shared/diff";
import { ResourceFailure } from "../shared/failures";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { createdLookup, newestListed } from "../shared/created-lookup";
import type { OwnerCheck } from "../shared/reconciler";
import { tableOperations, type AccountInputs, type AccountOutputs } from "./fields";

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
  const outs = await tableOperations.updated(olds, news, (body) => updateAccount(ctx.request, olds.slug, body));
  return { ...outs, userId: outs.userId ?? olds.userId };
}

async function adopt(ctx: OperationContext, importId: string, inputs: AccountInputs): Promise<AccountOutputs> {
  const record = await objectToAdopt(KIND, importId, () => getAccountBySlug(ctx.request, importId));
  const outs = await adoptionChange(KIND, importId, () => update(ctx, String(record.id), tableOperations.outputs(record, inputs), inputs));
  return { ...outs, userId: await reachedBy(ctx, outs) };
}

/** What `POST {host}/accounts` takes (facts, "Accounts"); the rest of the inputs are set by a PUT after it. */
const CREATE_FIELDS = ["name", "region", "account_id"] as const;

function createWith(request: RequestFn, body: Record<string, unknown>): Promise<ManagedAccountRecord> {
  return createAccount(request, Object.fromEntries(CREATE_FIELDS.filter((name) => body[name] !== undefined).map((name) => [name, body[name]])));
}

/** The made account brought to the inputs the create could not send (location, emails): one PUT, or none. */
async function settle(ctx: OperationContext, record: ManagedAccountRecord, inputs: AccountInputs): Promise<AccountOutputs> {
  return tableOperations.updated(tableOperations.outputs(record, inputs), inputs, (body) => updateAccount(ctx.request, record.account_id, body));
}

function notOwnerError(slug: string | undefined, id: string): ResourceFailure {
  return new ResourceFailure(
    `account ${slug} (${id}) can be deleted by its owner only, and these settings' user is not its owner: ` +
      "have the owner delete it, or drop it from the stack with `pulumi state delete`",
  );
}

/**
 * Stops when the account is out of the settings' sight because they name a user who is not a
 * member, rather than because it is gone. An account recorded with no user passes with no call;
 * so does the recorded user, whose account it stays (deleted, if the service no longer has it).
 */
async function ensureVisibleUser(settings: SettingsUse, id: string, props: AccountOutputs): Promise<void> {
  if (props.userId === undefined || (await currentUserId(settings)) === props.userId) return;
  const current = await currentUser(settings);
  throw new ResourceFailure(
    `account ${props.slug} (number ${id}) was reached with user ${props.userId}'s API key, but the provider's API key (etl:apiKey) is now ` +
      `user ${current.id}'s (${current.email}), who is not a member of it, and the service shows an account to its members only; nothing was changed. ` +
      `Set etl:apiKey back to the key of a member (user ${props.userId}), or make user ${current.id} a member of the account; ` +
      "to leave the account out of this stack, `pulumi state delete <its URN>` (`pulumi stack --show-urns` shows it)",
  );
}

/** The accounts these settings have read in this process (kept with them): a diff after a refresh's read asks nothing more. */
function noteReached(settings: SettingsUse, id: string): void {
  settings.learned.reachedAccounts.add(id);
}

/** The diff of an account the settings can still reach: a non-member's key stops the preview. */
async function diff(id: string, olds: AccountOutputs, news: AccountInputs, context: () => OperationContext): Promise<DetailedDiffResult> {
  const ctx = context();
  const readHere = ctx.learned.reachedAccounts.has(id);
  if (!readHere && olds.userId !== undefined && (await currentUserId(ctx)) !== olds.userId) {
    // Another member's key reaches the account too: only a key that cannot see it stops.
    const visible = await getAccount(ctx.request, id, olds).catch((error: unknown) => (error instanceof NotFoundError ? undefined : Promise.reject(error)));
    if (visible === undefined) await ensureVisibleUser(ctx, id, olds);
  }
  return tableOperations.diff(olds, news);
}

/**
 * Only the owner may delete an account: anyone else is told so before anything is sent. A 404
 * is confirmed by number before it counts: renamed out of band, the account is deleted by its
 * new slug; out of the settings' sight, the delete stops.
 */
async function remove(ctx: OperationContext, id: string, props: AccountOutputs): Promise<void> {
  if (props.isOwner === false) throw notOwnerError(props.slug, id);
  try {
    await deleteAccount(ctx.request, props.slug);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const renamed = await accountNumbered(ctx.request, id);
    if (renamed === undefined) return ensureVisibleUser(ctx, id, props);
    if (renamed.is_owner === false) throw notOwnerError(renamed.account_id, id);
    await deleteAccount(ctx.request, renamed.account_id);
  }
}

/** The user the read shows: the owner, when the caller owns it; else the settings' user, who reached it. */
async function reachedBy(settings: SettingsUse, outs: AccountOutputs): Promise<number> {
  return outs.userId ?? (await currentUserId(settings));
}

/** Whether the caller owns the account: an answer that names no owner is the caller's own. */
function ownedByCaller(record: ManagedAccountRecord, owners: OwnerCheck): boolean {
  return record.is_owner !== false && (record.owner_id === undefined || record.owner_id === null || owners.ownerMatches(record.owner_id));
}

/** The account a create may have made: made since it was sent, owned by the caller, with what the POST sent (the PUT of the rest may not have come). */
export const createdAccount = createdLookup<ManagedAccountRecord, AccountInputs>({
  candidates: newestListed(managedAccountRecord, "accounts", () => newestAccountsRequest),
  madeBy: (record, inputs, owners) => {
    const posted: AccountInputs = { name: inputs.name, region: inputs.region, ...(inputs.slug === undefined ? {} : { slug: inputs.slug }) };
    return ownedByCaller(record, owners) && tableOperations.hasSentValues(record, posted);
  },
});

const operations = standardOperations(tableOperations, {
  kind: KIND,
  create: (request, body) => createWith(request, body as Record<string, unknown>),
  findCreated: createdAccount.find,
  get: getAccount,
  remove,
  update,
  settle,
  adopt,
  // The slug names the adopted account; the resource's id is its number.
  adoptedId: (outs) => String(outs.number),
});

export const accountImplementation = {
  ...operations,
  diff,

  /** An account gone from the settings' sight is gone only for the user who could see it. */
  async read(ctx: OperationContext, id: string, props: AccountOutputs) {
    const result = await operations.read(ctx, id, props);
    if (result.props === undefined) {
      await ensureVisibleUser(ctx, id, props);
      return result;
    }
    noteReached(ctx, id);
    return { ...result, props: { ...result.props, userId: await reachedBy(ctx, result.props) } };
  },
} satisfies ResourceImplementation<AccountInputs, AccountOutputs>;
