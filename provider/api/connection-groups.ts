/** Connection groups: `{base_url}/connection_groups` (spec 2.7 and 4.5; update from the facts). */
import { z } from "zod";
import type { ApiRequest, RequestFn } from "../client/http";
import { collection } from "./collection";
import { parsePage, type Page, type PageRequest } from "./records";

export const connectionGroupRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  account_id: z.number().int(),
  modified_by: z.object({ name: z.string(), email: z.string() }),
  connections: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ConnectionGroupRecord = z.output<typeof connectionGroupRecord>;
export const CONNECTION_GROUP_FIELDS = Object.keys(connectionGroupRecord.shape) as readonly (keyof ConnectionGroupRecord)[];

/** A connection to assign; `type` must be the connection's own type. */
export interface ConnectionAssignment {
  id: number;
  type: string;
}

export interface ConnectionGroupFields {
  name: string;
  description?: string | null;
}

export interface CreateConnectionGroupBody {
  connection_group: ConnectionGroupFields;
  connections?: ConnectionAssignment[];
}

/** Fields left out stay as they are; `connections`, when given, replaces every assignment. */
export interface UpdateConnectionGroupBody {
  connection_group?: Partial<ConnectionGroupFields>;
  connections?: ConnectionAssignment[];
}

export interface SearchConnectionGroupsRequest extends PageRequest {
  q: string;
}

export const connectionGroups = collection<typeof connectionGroupRecord, CreateConnectionGroupBody, UpdateConnectionGroupBody, number>({
  path: "/connection_groups",
  record: connectionGroupRecord,
  what: "a connection group",
});

export const { create: createConnectionGroup, get: getConnectionGroup, update: updateConnectionGroup, delete: deleteConnectionGroup } = connectionGroups;

export async function searchConnectionGroupsPage(request: RequestFn, search: SearchConnectionGroupsRequest): Promise<Page<ConnectionGroupRecord>> {
  const response = await request({
    method: "GET",
    path: "/connection_groups/search",
    query: { q: search.q, offset: search.offset, limit: search.limit },
  });
  return parsePage(connectionGroupRecord, response, "a list of connection groups");
}

/** The first page of the groups whose name or description contains `q`. */
export function searchConnectionGroupsRequest(q: string): ApiRequest {
  return { method: "GET", path: "/connection_groups/search", query: { q } };
}
