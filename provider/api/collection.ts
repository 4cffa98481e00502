/**
 * The create, read, update and delete of one kind of object at its collection's path
 * (`POST /clusters`, `GET|PUT|DELETE /clusters/{id}`), each answer checked against the kind's
 * record. Every kind's module declares its collection once and names its typed endpoints from it.
 */
import type { z } from "zod";
import type { RequestFn } from "../client/http";
import { parseRecord } from "./records";

export interface CollectionSpec<S extends z.ZodType> {
  /** The collection's path: relative to `{base_url}`, or to the host with `atHostRoot`. */
  path: string;
  atHostRoot?: boolean;
  /** What an answer holds. */
  record: S;
  /** One object in words, for an answer that breaks the API ("a cluster"). */
  what: string;
}

export interface Collection<Rec, Create, Update, Id> {
  create(request: RequestFn, body: Create): Promise<Rec>;
  get(request: RequestFn, id: Id): Promise<Rec>;
  /** Fields left out stay as they are, unless the kind says otherwise. */
  update(request: RequestFn, id: Id, body: Update): Promise<Rec>;
  /** The answer's body is not relied on: only its success matters. */
  delete(request: RequestFn, id: Id): Promise<void>;
  /** For a kind whose delete answers with the object as the delete left it (a cluster terminating, a package archived). */
  deleteAnswered(request: RequestFn, id: Id): Promise<Rec>;
  /** One object's path, for the kind's other endpoints (`/hooks/{id}/ping`). */
  pathOf(id: Id): string;
}

export function collection<S extends z.ZodType, Create = object, Update = object, Id extends string | number = string | number>(
  spec: CollectionSpec<S>,
): Collection<z.output<S>, Create, Update, Id> {
  const { path, record, what } = spec;
  const atHostRoot = spec.atHostRoot === true ? { atHostRoot: true } : {};
  const pathOf = (id: Id) => `${path}/${encodeURIComponent(String(id))}`;
  const parsed = (body: unknown): z.output<S> => parseRecord(record, body, what);
  return {
    create: async (request, body) => parsed((await request({ method: "POST", path, ...atHostRoot, body })).body),
    get: async (request, id) => parsed((await request({ method: "GET", path: pathOf(id), ...atHostRoot })).body),
    update: async (request, id, body) => parsed((await request({ method: "PUT", path: pathOf(id), ...atHostRoot, body })).body),
    delete: async (request, id) => {
      await request({ method: "DELETE", path: pathOf(id), ...atHostRoot });
    },
    deleteAnswered: async (request, id) => parsed((await request({ method: "DELETE", path: pathOf(id), ...atHostRoot })).body),
    pathOf,
  };
}
