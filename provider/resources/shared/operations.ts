/**
 * A resource's operations, made from its field table and its declared endpoints: check by the
 * table's rules, diff by them, create once (the table's body sent to the create endpoint; after
 * an unknown outcome, the lookup endpoint finds what it may have made), read by id (a 404 means
 * the object is gone), update through the resource's own update, delete by id (an object already
 * gone counts as deleted). Ids of other objects the inputs name are read as the table says
 * (referenced-objects.ts). A resource spreads these into its implementation and writes only
 * what a table and endpoints cannot say: waits, adoption rules, diff adjustments.
 */
import type { z } from "zod";
import type { RequestFn } from "../../client/http";
import type { OperationContext, SettingsUse } from "../../context";
import { batchedRead, markWritten, type KindListing } from "./batched-reads";
import { checkWithSchema } from "./check";
import type { DetailedDiffResult, DiffOptions } from "./diff";
import { unlessGone } from "./gone";
import type { OwnerCheck } from "./reconciler";
import { explainRefusal, referenceReads, refuseMissingReferences, type InputReference, type ReferenceReads } from "./referenced-objects";

/** What of a field table the operations use (what `fieldOperations` makes of it: each kind's `tableOperations`). */
export interface TableOperations<Rec, Inputs, Outputs, Body> {
  inputSchema: z.ZodType;
  diff(olds: Outputs, news: Inputs, options?: DiffOptions): DetailedDiffResult;
  createBody(inputs: Inputs): Body;
  outputs(record: Rec, inputs: Inputs): Outputs;
  readResult(id: string, record: Rec | undefined, props: Outputs): { id?: string; props?: Outputs; inputs?: Partial<Inputs> };
  references: readonly InputReference[];
}

export interface Endpoints<Rec, Inputs, Outputs, Body> {
  /** The kind in words, for messages and the claims of created objects ("connection group"). */
  kind: string;
  /** Sends the create with the body the table makes; `settings`: what the operation's settings learned, for a kind that asks who its user is. */
  create(request: RequestFn, body: Body, inputs: Inputs, settings: SettingsUse): Promise<Rec>;
  /** After a create whose outcome is unknown: the objects, newest first, it may have made. */
  findCreated(request: RequestFn, inputs: Inputs, sentAt: number, owners: OwnerCheck, settings: SettingsUse): Promise<Rec[]>;
  /** The object as the service has it now. */
  get(request: RequestFn, id: string, props: Outputs, settings: SettingsUse): Promise<Rec>;
  /** The kind's listing, when it returns what `get` does: many reads together are answered from it. */
  listed?: KindListing;
  /**
   * The record from the listing's item, when the listing holds less than `get` answers: what it
   * lacks taken from the outputs while the item says nothing changed, else read.
   */
  fromListed?(request: RequestFn, listed: Rec, id: string, props: Outputs): Promise<Rec>;
  remove(ctx: OperationContext, id: string, props: Outputs): Promise<unknown>;
  /** Brings the object to `news`; left out when every change replaces the resource. `referenced`: the objects its inputs' ids name, as already read. */
  update?(ctx: OperationContext, id: string, olds: Outputs, news: Inputs, referenced?: ReferenceReads): Promise<Outputs>;
  /** Takes over the existing object `importId` names instead of creating one. */
  adopt(ctx: OperationContext, importId: string, inputs: Inputs): Promise<Outputs>;
  /** The adopted object's id, when it is not `importId` itself (a member named by email). */
  adoptedId?(outputs: Outputs): string;
  /** Runs before the create is sent (a connection's settings are tried first); `referenced` as for `update`. */
  beforeCreate?(ctx: OperationContext, inputs: Inputs, body: Body, referenced: ReferenceReads): Promise<void>;
  /** Explains a refused create (a name another object holds); rethrows anything else. */
  refused?(error: unknown, ctx: OperationContext, inputs: Inputs): Promise<never>;
  /**
   * The outputs of the object made, or found after an unknown outcome (`found`): a wait until it
   * is ready, a found one brought to the inputs. Without it, the record's outputs.
   */
  settle?(ctx: OperationContext, record: Rec, inputs: Inputs, found: boolean): Promise<Outputs>;
  /** How the diff treats a replacement (a name the service holds once is deleted first). */
  diffOptions?: DiffOptions;
}

/** A record that names its owner teaches the reconciler who this API user is. */
function noteOwnerOf(ctx: OperationContext, record: { owner_id?: unknown }): void {
  if (typeof record.owner_id === "number") ctx.reconciler.noteOwner(record.owner_id);
}

export function standardOperations<Rec extends { id: number }, Inputs extends { importId?: string }, Outputs, Body>(
  tableOperations: TableOperations<Rec, Inputs, Outputs, Body>,
  endpoints: Endpoints<Rec, Inputs, Outputs, Body>,
) {
  const update = endpoints.update;
  const references = tableOperations.references;
  return {
    async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
      return checkWithSchema(tableOperations.inputSchema, news);
    },

    async diff(_id: string, olds: Outputs, news: Inputs): Promise<DetailedDiffResult> {
      return tableOperations.diff(olds, news, endpoints.diffOptions);
    },

    async create(ctx: OperationContext, inputs: Inputs): Promise<{ id: string; outs: Outputs }> {
      const referenced = referenceReads(ctx.request);
      await refuseMissingReferences(ctx, references, inputs, undefined, referenced);
      if (inputs.importId !== undefined) {
        markWritten(ctx.reads, endpoints.kind, inputs.importId);
        const outs = await endpoints.adopt(ctx, inputs.importId, inputs);
        const id = endpoints.adoptedId?.(outs) ?? inputs.importId;
        ctx.held.note(endpoints.kind, id);
        return { id, outs };
      }
      const { request } = ctx;
      const body = tableOperations.createBody(inputs);
      await endpoints.beforeCreate?.(ctx, inputs, body, referenced);
      const { record, adopted } = await ctx.reconciler
        .createOnce({
          kind: endpoints.kind,
          request,
          send: () => endpoints.create(request, body, inputs, ctx),
          find: (sentAt, lookup) => endpoints.findCreated(lookup, inputs, sentAt, ctx.reconciler, { request: lookup, learned: ctx.learned }),
          idOf: (made) => made.id,
        })
        .catch((error: unknown) => explainRefusal(ctx, references, error, inputs))
        .catch((error: unknown) => (endpoints.refused ? endpoints.refused(error, ctx, inputs) : Promise.reject(error)));
      noteOwnerOf(ctx, record as { owner_id?: unknown });
      markWritten(ctx.reads, endpoints.kind, String(record.id));
      const outs = endpoints.settle ? await endpoints.settle(ctx, record, inputs, adopted) : tableOperations.outputs(record, inputs);
      ctx.held.note(endpoints.kind, String(record.id));
      return { id: String(record.id), outs };
    },

    async read(ctx: OperationContext, id: string, props: Outputs) {
      const get = () => endpoints.get(ctx.request, id, props, ctx);
      const fromListed = endpoints.fromListed;
      const completed = fromListed && ((listed: unknown) => fromListed(ctx.request, listed as Rec, id, props));
      const record =
        endpoints.listed === undefined
          ? get()
          : batchedRead(
              ctx.reads,
              ctx.request,
              endpoints.kind,
              endpoints.listed,
              { id, createdAt: (props as { createdAt?: unknown }).createdAt },
              get,
              completed,
            );
      return tableOperations.readResult(id, await unlessGone(record), props);
    },

    ...(update === undefined
      ? {}
      : {
          async update(ctx: OperationContext, id: string, olds: Outputs, news: Inputs) {
            markWritten(ctx.reads, endpoints.kind, id);
            const referenced = referenceReads(ctx.request);
            await refuseMissingReferences(ctx, references, news, olds, referenced);
            const outs = await update(ctx, id, olds, news, referenced).catch((error: unknown) => explainRefusal(ctx, references, error, news, olds));
            return { outs };
          },
        }),

    async delete(ctx: OperationContext, id: string, props: Outputs): Promise<void> {
      if (ctx.held.release(endpoints.kind, id)) {
        ctx.report.note(`${endpoints.kind} ${id} is now held by a resource this deployment created (its replacement): left in place`, "info");
        return;
      }
      markWritten(ctx.reads, endpoints.kind, id);
      await unlessGone(endpoints.remove(ctx, id, props));
    },
  };
}
