/** Finding connection groups by text (spec 4.5). */
import { z } from "zod";
import { connectionGroupRecord, searchConnectionGroupsPage, type ConnectionGroupRecord } from "../api/connection-groups";
import { collectAllPages } from "../client/pagination";
import { programRequest } from "../context";
import { nonBlankText, pageLimit, pageOffset, parseArguments } from "./arguments";

export interface SearchConnectionGroupsArgs {
  /** Matched against names and descriptions. */
  q: string;
  /** With `limit`, asks for that one page only; without both, every match is returned. */
  offset?: number;
  /** 1 to 100; the service's default is 20. */
  limit?: number;
}

export interface ConnectionGroupInfo {
  id: number;
  name: string;
  description: string | null;
  accountId: number;
  modifiedBy: { name: string; email: string };
  connections: Array<{ id: number; name: string; type: string }>;
  createdAt: string;
  updatedAt: string;
}

const searchArgs = z.strictObject({ q: nonBlankText(), offset: pageOffset().optional(), limit: pageLimit().optional() });

/**
 * Every group matching `q`, following the pages the service announces; or, when `offset` or
 * `limit` is given, exactly the page they select.
 */
export async function searchConnectionGroups(args: SearchConnectionGroupsArgs): Promise<ConnectionGroupInfo[]> {
  const search = parseArguments("searchConnectionGroups", searchArgs, args);
  const request = programRequest();
  const records =
    search.offset === undefined && search.limit === undefined
      ? await collectAllPages(request, (r) => searchConnectionGroupsPage(r, { q: search.q }), connectionGroupRecord, { what: "connection groups" })
      : (await searchConnectionGroupsPage(request, search)).items;
  return records.map(connectionGroupInfoOf);
}

function connectionGroupInfoOf(record: ConnectionGroupRecord): ConnectionGroupInfo {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    accountId: record.account_id,
    modifiedBy: { name: record.modified_by.name, email: record.modified_by.email },
    connections: record.connections.map(({ id, name, type }) => ({ id, name, type })),
    createdAt: record.created_at,
    updatedAt: record.updated_at,
  };
}
