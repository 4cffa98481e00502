/**
 * What most resources do alike, made from the field table and the service's endpoints: check by
 * the table's rules, diff by them, read by id (a 404 means the object is gone), update through
 * the resource's own update, delete by id (an object already gone counts as deleted). A
 * resource spreads these into its provider object and writes only what is its own: create, and
 * any operation that differs.
 */
import type { z } from "zod";
import type { RequestFn } from "../../client/http";
import { apiRequest } from "../../context";
import { checkWithSchema } from "./check";
import type { DetailedDiffResult, DiffOptions } from "./diff";
import { unlessGone } from "./gone";

/** What of a field table the operations use (`fieldsOf` yields it). */
export interface TableOperations<Rec, Inputs, Outputs> {
  inputSchema: z.ZodType;
  diff(olds: Outputs, news: Inputs, options?: DiffOptions): DetailedDiffResult;
  readResult(id: string, record: Rec | undefined, props: Outputs): { id?: string; props?: Outputs; inputs?: Partial<Inputs> };
}

export interface Endpoints<Rec, Inputs, Outputs> {
  /** The object as the service has it now. */
  get(request: RequestFn, id: string, props: Outputs): Promise<Rec>;
  remove(request: RequestFn, id: string, props: Outputs): Promise<unknown>;
  /** Brings the object to `news`; left out when every change replaces the resource. */
  update?(id: string, olds: Outputs, news: Inputs): Promise<Outputs>;
  /** How the diff treats a replacement (a name the service holds once is deleted first). */
  diffOptions?: DiffOptions;
}

export function standardOperations<Rec, Inputs, Outputs>(fields: TableOperations<Rec, Inputs, Outputs>, endpoints: Endpoints<Rec, Inputs, Outputs>) {
  const update = endpoints.update;
  return {
    async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
      return checkWithSchema(fields.inputSchema, news);
    },

    async diff(_id: string, olds: Outputs, news: Inputs): Promise<DetailedDiffResult> {
      return fields.diff(olds, news, endpoints.diffOptions);
    },

    async read(id: string, props: Outputs) {
      return fields.readResult(id, await unlessGone(endpoints.get(apiRequest(), id, props)), props);
    },

    ...(update === undefined
      ? {}
      : {
          async update(id: string, olds: Outputs, news: Inputs) {
            return { outs: await update(id, olds, news) };
          },
        }),

    async delete(id: string, props: Outputs): Promise<void> {
      await unlessGone(endpoints.remove(apiRequest(), id, props));
    },
  };
}
