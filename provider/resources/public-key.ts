/**
 * PublicKey: an SSH public key of the API user, used to reach cluster machines.
 *
 * The API has no update for keys, so any change of the key or its name replaces it. The service
 * refuses the same key twice, so when a replacement keeps the key (only the name changes) the old
 * one is deleted first. Adopting an existing key (`importId`) takes it as it is: the key and its
 * name must already be the ones asked for. A create whose outcome is unknown looks for the key by
 * its fingerprint before sending again (see reconcile.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { createPublicKey, deletePublicKey, getPublicKey, listPublicKeysRequest, publicKeyRecord, type PublicKeyRecord } from "../api/public-keys";
import { NotFoundError } from "../client/errors";
import type { RequestFn } from "../client/http";
import { collectAllPages } from "../client/pagination";
import { apiRequest } from "../context";
import { resourceType, withProvider } from "../dynamic";
import type { ResourceImplementation } from "./implementation";
import { parseSshPublicKey } from "../../contract/ssh-public-key";
import { AdoptionError, importIdInput, orInTheWay } from "./adopt";
import { checkWithSchema, isUnknown, labelText } from "./check";
import { createdInWindow, finishingOnCancel } from "./reconcile";
import { reconciler } from "./reconciler";

export interface PublicKeyArgs {
  /** An OpenSSH public key line, such as the contents of `~/.ssh/id_ed25519.pub`. */
  publicKey: pulumi.Input<string>;
  /** The key's name in the service; defaults to the key's comment. */
  name?: pulumi.Input<string>;
  /** The id of an existing key to manage instead of creating one; its key and name must match. */
  importId?: pulumi.Input<string | number>;
}

/** Inputs after `check`: the key normalized to single spaces with no surrounding whitespace. */
export interface PublicKeyInputs {
  publicKey: string;
  name?: string;
  importId?: string;
}

export interface PublicKeyOutputs {
  publicKey: string;
  name: string;
  fingerprint: string;
  comment: string;
  createdAt: string;
  importId?: string;
}

const KIND = "public key";

const inputSchema = z
  .strictObject({
    publicKey: z.string().transform((text, ctx) => {
      if (isUnknown(text)) return text;
      const parsed = parseSshPublicKey(text);
      if (parsed.ok) return parsed.key.normalized;
      ctx.addIssue({ code: "custom", message: parsed.rule });
      return z.NEVER;
    }),
    name: labelText().optional(),
    importId: importIdInput,
  })
  .superRefine((inputs, ctx) => {
    if (inputs.name === undefined && !isUnknown(inputs.publicKey) && commentOf(inputs.publicKey) === "") {
      ctx.addIssue({ code: "custom", path: ["name"], message: "is required when publicKey has no comment" });
    }
  });

function commentOf(publicKey: string): string {
  const parsed = parseSshPublicKey(publicKey);
  return parsed.ok ? parsed.key.comment : "";
}

function fingerprintOf(publicKey: string): string | undefined {
  const parsed = parseSshPublicKey(publicKey);
  return parsed.ok ? parsed.key.fingerprint : undefined;
}

/** The name the key gets: the one given, or else the key's comment. */
function wantedNameOf(inputs: PublicKeyInputs): string | undefined {
  return inputs.name ?? (isUnknown(inputs.publicKey) ? undefined : commentOf(inputs.publicKey));
}

function outputsOf(inputs: PublicKeyInputs, record: PublicKeyRecord): PublicKeyOutputs {
  return {
    publicKey: inputs.publicKey,
    name: record.name,
    fingerprint: record.fingerprint,
    comment: record.comment,
    createdAt: record.created_at,
    ...(inputs.importId === undefined ? {} : { importId: inputs.importId }),
  };
}

/** The inputs that would produce the key as it now is; a name equal to the comment is the default. */
function inputsOf(outputs: PublicKeyOutputs): PublicKeyInputs {
  return {
    publicKey: outputs.publicKey,
    ...(outputs.name === commentOf(outputs.publicKey) ? {} : { name: outputs.name }),
    ...(outputs.importId === undefined ? {} : { importId: outputs.importId }),
  };
}

/** Keys cannot be updated: an existing key is adopted only when it already is what is asked for. */
async function adopt(inputs: PublicKeyInputs & { importId: string }): Promise<PublicKeyOutputs> {
  let record: PublicKeyRecord;
  try {
    record = await getPublicKey(apiRequest(), inputs.importId);
  } catch (error) {
    if (error instanceof NotFoundError) throw new AdoptionError(KIND, inputs.importId, `no ${KIND} ${inputs.importId} in this account`);
    throw error;
  }
  const fingerprint = fingerprintOf(inputs.publicKey);
  if (fingerprint !== record.fingerprint) {
    throw new AdoptionError(KIND, inputs.importId, `publicKey has fingerprint ${fingerprint}, the key's is ${record.fingerprint}; keys cannot be changed`);
  }
  const name = wantedNameOf(inputs);
  if (name !== record.name) {
    throw new AdoptionError(KIND, inputs.importId, `name is ${JSON.stringify(name)}, the key's is ${JSON.stringify(record.name)}; the API cannot rename keys`);
  }
  return outputsOf(inputs, record);
}

/**
 * The key a create sent at `sentAt` may have made: the user cannot register a key twice, so a
 * key with its fingerprint, made since then, with the name asked for, is that one. An older one
 * means the create could not have succeeded, and sending it again says so.
 */
export function isKeyCreatedBy(key: PublicKeyRecord, inputs: PublicKeyInputs, sentAt: number): boolean {
  return key.fingerprint === fingerprintOf(inputs.publicKey) && key.name === wantedNameOf(inputs) && createdInWindow(key.created_at, sentAt);
}

async function keysLike(request: RequestFn, publicKey: string): Promise<PublicKeyRecord[]> {
  const keys = await collectAllPages(request, listPublicKeysRequest, publicKeyRecord, { what: "public keys" });
  return keys.filter((key) => key.fingerprint === fingerprintOf(publicKey));
}

export async function findCreatedKey(request: RequestFn, inputs: PublicKeyInputs, sentAt: number): Promise<PublicKeyRecord[]> {
  return (await keysLike(request, inputs.publicKey)).filter((key) => isKeyCreatedBy(key, inputs, sentAt));
}


export const publicKeyProvider = {
  async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
    return checkWithSchema(inputSchema, news);
  },

  async diff(_id: string, olds: PublicKeyOutputs, news: PublicKeyInputs): Promise<pulumi.dynamic.DiffResult> {
    const wantedName = wantedNameOf(news);
    const replaces: string[] = [];
    if (olds.publicKey !== news.publicKey) replaces.push("publicKey");
    if (olds.name !== wantedName) replaces.push("name");
    const keepsTheKey = !isUnknown(news.publicKey) && fingerprintOf(news.publicKey) === olds.fingerprint;
    return { changes: replaces.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 && keepsTheKey };
  },

  async create(inputs: PublicKeyInputs): Promise<pulumi.dynamic.CreateResult<PublicKeyOutputs>> {
    if (inputs.importId !== undefined) {
      return { id: inputs.importId, outs: await adopt({ ...inputs, importId: inputs.importId }) };
    }
    const request = apiRequest();
    const body = { public_key: inputs.publicKey, ...(inputs.name === undefined ? {} : { name: inputs.name }) };
    const { record } = await reconciler().createOnce({
      kind: KIND,
      send: () => createPublicKey(request, body),
      find: (sentAt) => findCreatedKey(finishingOnCancel(request), inputs, sentAt),
      idOf: (key) => key.id,
    }).catch((error: unknown) =>
      // The service takes a key once per user.
      orInTheWay(error, {
        kind: KIND,
        which: `with fingerprint ${fingerprintOf(inputs.publicKey)}`,
        holders: () => keysLike(request, inputs.publicKey),
        otherwise: "use another key",
      }),
    );
    return { id: String(record.id), outs: outputsOf(inputs, record) };
  },

  // The SDK types `inputs` as the outputs' type; they are the inputs' shape.
  async read(id: string, props: PublicKeyOutputs): Promise<pulumi.dynamic.ReadResult> {
    try {
      const outputs = outputsOf(props, await getPublicKey(apiRequest(), id));
      return { id, props: outputs, inputs: inputsOf(outputs) };
    } catch (error) {
      if (error instanceof NotFoundError) return {};
      throw error;
    }
  },

  async delete(id: string): Promise<void> {
    try {
      await deletePublicKey(apiRequest(), id);
    } catch (error) {
      // Already gone is what delete wants.
      if (!(error instanceof NotFoundError)) throw error;
    }
  },
} satisfies ResourceImplementation<PublicKeyInputs, PublicKeyOutputs>;

export class PublicKey extends pulumi.CustomResource {
  declare readonly publicKey: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly fingerprint: pulumi.Output<string>;
  declare readonly comment: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly importId: pulumi.Output<string | undefined>;

  /**
   * `deleteBeforeReplace` defaults to true: the service holds a key once, and a forced
   * replacement (`--replace`, for which the engine asks the provider nothing) keeps the key.
   * Options given here win.
   */
  constructor(name: string, args: PublicKeyArgs, opts?: pulumi.CustomResourceOptions) {
    // Every output is named in the props (as undefined) so the engine exposes it on the class.
    const outputs = {
      name: undefined,
      fingerprint: undefined,
      comment: undefined,
      createdAt: undefined,
      importId: undefined,
    };
    const options = { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true };
    super(resourceType("PublicKey"), name, withProvider("PublicKey", { ...outputs, ...args }), options);
  }
}
