/**
 * PublicKey: an SSH public key of the API user, used to reach cluster machines.
 *
 * The service refuses the same key twice, so when a replacement keeps the key (only the name
 * changes) the old one is deleted first. Adopting an existing key (`importId`) takes it as it
 * is: the key and its name must already be the ones asked for. A create whose outcome is unknown
 * looks for the key by its fingerprint before sending again (see shared/reconciler.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { createPublicKey, deletePublicKey, getPublicKey, listPublicKeysRequest, publicKeyRecord, type PublicKeyRecord } from "../../api/public-keys";
import type { RequestFn } from "../../client/http";
import { collectAllPages } from "../../client/pagination";
import type { OperationContext } from "../../context";
import { AdoptionError, objectToAdopt, orInTheWay } from "../shared/adopt";
import { isUnknown } from "../shared/check";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { createdLookup } from "../shared/created-lookup";
import { tableOperations, fingerprintOf, type PublicKeyInputs, type PublicKeyOutputs } from "./fields";
import { publicKeyExport } from "./export";
import { currentUserId, ensureSameUser, noteFoundKeyOwner, ownerOfNewKey } from "./owner";

const KIND = "public key";

/** Keys cannot be updated: an existing key is adopted only when it already is what is asked for. */
async function adopt(ctx: OperationContext, importId: string, inputs: PublicKeyInputs): Promise<PublicKeyOutputs> {
  const record = await objectToAdopt(KIND, importId, () => getPublicKey(ctx.request, importId));
  const fingerprint = fingerprintOf(inputs.publicKey);
  if (fingerprint !== record.fingerprint) {
    throw new AdoptionError(KIND, importId, `publicKey has fingerprint ${fingerprint}, the key's is ${record.fingerprint}; keys cannot be changed`);
  }
  const name = tableOperations.desired("name", inputs);
  if (name !== record.name) {
    throw new AdoptionError(KIND, importId, `name is ${JSON.stringify(name)}, the key's is ${JSON.stringify(record.name)}; the API cannot rename keys`);
  }
  // A key found under these settings is their user's.
  return tableOperations.outputs({ ...record, user_id: await currentUserId(ctx) }, inputs);
}

async function keysLike(request: RequestFn, publicKey: string): Promise<PublicKeyRecord[]> {
  const keys = await collectAllPages(request, listPublicKeysRequest, publicKeyRecord, { what: "public keys" });
  return keys.filter((key) => key.fingerprint === fingerprintOf(publicKey));
}

/**
 * The key a create may have made: the user cannot register a key twice, so a key with its
 * fingerprint, made since it was sent, with the name asked for, is that one. An older one means
 * the create could not have succeeded, and sending it again says so.
 */
export const createdKey = createdLookup<PublicKeyRecord, PublicKeyInputs>({
  candidates: (request, inputs) => keysLike(request, inputs.publicKey),
  madeBy: (key, inputs) => tableOperations.hasSentValues(key, inputs),
});

const operations = standardOperations(tableOperations, {
  kind: KIND,
  create: createPublicKey,
  findCreated: createdKey.find,
  get: getPublicKey,
  listed: publicKeyExport,
  // Another user's key answers 404 as a deleted one does: it must not count as deleted.
  remove: async (ctx, id, props) => {
    await ensureSameUser(() => ctx, { id, name: props.name, userId: props.userId }, true);
    return deletePublicKey(ctx.request, id);
  },
  adopt,
  settle: async (ctx, record, inputs) => tableOperations.outputs({ ...record, user_id: await ownerOfNewKey(ctx, ctx.report) }, inputs),
  // The service takes a key once per user.
  refused: (error, { request }, inputs) =>
    orInTheWay(error, {
      kind: KIND,
      which: `with fingerprint ${fingerprintOf(inputs.publicKey)}`,
      holders: () => keysLike(request, inputs.publicKey),
      otherwise: "use another key",
    }),
});

export const publicKeyImplementation = {
  // Keys cannot be updated: every change replaces the key.
  ...operations,

  /** A key gone for these settings may be another user's: that stops the refresh rather than dropping it. */
  async read(ctx: OperationContext, id: string, props: PublicKeyOutputs) {
    const result = await operations.read(ctx, id, props);
    if (result.props === undefined) {
      await ensureSameUser(() => ctx, { id, name: props.name, userId: props.userId });
      return result;
    }
    noteFoundKeyOwner(ctx, props.userId);
    // A key recorded before keys recorded their user learns it here.
    return { ...result, props: { ...result.props, userId: props.userId ?? (await currentUserId(ctx)) } };
  },

  async diff(id: string, olds: PublicKeyOutputs, news: PublicKeyInputs, context: () => OperationContext): Promise<pulumi.dynamic.DiffResult> {
    await ensureSameUser(context, { id, name: olds.name, userId: olds.userId }, true);
    const keepsTheKey = !isUnknown(news.publicKey) && fingerprintOf(news.publicKey) === olds.fingerprint;
    return tableOperations.diff(olds, news, { deleteBeforeReplace: keepsTheKey });
  },
} satisfies ResourceImplementation<PublicKeyInputs, PublicKeyOutputs>;
