/**
 * PublicKey: an SSH public key of the API user, used to reach cluster machines.
 *
 * The API has no update for keys, so any change of the key or its name replaces it. The service
 * refuses the same key twice, so when a replacement keeps the key (only the name changes) the old
 * one is deleted first.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { createPublicKey, deletePublicKey, getPublicKey, type PublicKeyRecord } from "../api/public-keys";
import { NotFoundError } from "../client/errors";
import { apiRequest } from "../context";
import { shimFor } from "../shim";
import { parseSshPublicKey } from "../validation/ssh-public-key";
import { checkWithSchema, isUnknown } from "./check";

export interface PublicKeyArgs {
  /** An OpenSSH public key line, such as the contents of `~/.ssh/id_ed25519.pub`. */
  publicKey: pulumi.Input<string>;
  /** The key's name in the service; defaults to the key's comment. */
  name?: pulumi.Input<string>;
}

/** Inputs after `check`: the key normalized to single spaces with no surrounding whitespace. */
export interface PublicKeyInputs {
  publicKey: string;
  name?: string;
}

export interface PublicKeyOutputs {
  publicKey: string;
  name: string;
  fingerprint: string;
  comment: string;
  createdAt: string;
  updatedAt: string;
  url: string;
}

const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

const inputSchema = z
  .strictObject({
    publicKey: z.string().transform((text, ctx) => {
      if (isUnknown(text)) return text;
      const parsed = parseSshPublicKey(text);
      if (parsed.ok) return parsed.key.normalized;
      ctx.addIssue({ code: "custom", message: parsed.rule });
      return z.NEVER;
    }),
    name: z.string().trim().min(1).max(255).regex(NO_CONTROL_CHARACTERS, "must not contain control characters").optional(),
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

function outputsOf(publicKey: string, record: PublicKeyRecord): PublicKeyOutputs {
  return {
    publicKey,
    name: record.name,
    fingerprint: record.fingerprint,
    comment: record.comment,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    url: record.url,
  };
}

export const publicKeyProvider = {
  async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
    return checkWithSchema(inputSchema, news);
  },

  async diff(_id: string, olds: PublicKeyOutputs, news: PublicKeyInputs): Promise<pulumi.dynamic.DiffResult> {
    const wantedName = news.name ?? (isUnknown(news.publicKey) ? undefined : commentOf(news.publicKey));
    const replaces: string[] = [];
    if (olds.publicKey !== news.publicKey) replaces.push("publicKey");
    if (olds.name !== wantedName) replaces.push("name");
    const keepsTheKey = !isUnknown(news.publicKey) && fingerprintOf(news.publicKey) === olds.fingerprint;
    return { changes: replaces.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 && keepsTheKey };
  },

  async create(inputs: PublicKeyInputs): Promise<pulumi.dynamic.CreateResult<PublicKeyOutputs>> {
    const body = { public_key: inputs.publicKey, ...(inputs.name === undefined ? {} : { name: inputs.name }) };
    const record = await createPublicKey(apiRequest(), body);
    return { id: String(record.id), outs: outputsOf(inputs.publicKey, record) };
  },

  async read(id: string, props: PublicKeyOutputs): Promise<pulumi.dynamic.ReadResult<PublicKeyOutputs>> {
    try {
      const record = await getPublicKey(apiRequest(), id);
      return { id, props: outputsOf(props.publicKey, record) };
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
};

export class PublicKey extends pulumi.dynamic.Resource {
  declare readonly publicKey: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly fingerprint: pulumi.Output<string>;
  declare readonly comment: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;
  declare readonly url: pulumi.Output<string>;

  constructor(name: string, args: PublicKeyArgs, opts?: pulumi.CustomResourceOptions) {
    // Every output is named in the props (as undefined) so the engine exposes it on the class.
    const outputs = { name: undefined, fingerprint: undefined, comment: undefined, createdAt: undefined, updatedAt: undefined, url: undefined };
    super(shimFor("PublicKey"), name, { ...outputs, ...args }, opts, "etl", "PublicKey");
  }
}
