/** Finding connection groups by text (spec 4.5). */
import { z } from "zod";
import { connectionGroupRecord, searchConnectionGroupsPage, type ConnectionGroupRecord } from "../api/connection-groups";
import { collectAllPages } from "../client/pagination";
import { camelCased, type CamelCased } from "../api/records";
import { programFunction, type FunctionContext } from "./context";
import { nonBlankText, pageLimit, pageOffset, parseArguments } from "./arguments";

export interface SearchConnectionGroupsArgs {
  /** Matched against names and descriptions. */
  q: string;
  /** With `limit`, asks for that one page only; without both, every match is returned. */
  offset?: number;
  /** 1 to 100; the service's default is 20. */
  limit?: number;
}

/** The connectiongroup as the service returns it, with camelCase field names. */
export type ConnectionGroupInfo = CamelCased<ConnectionGroupRecord>;

const searchArgs = z.strictObject({ q: nonBlankText(), offset: pageOffset().optional(), limit: pageLimit().optional() });

/**
 * Every group matching `q`, following the pages the service announces; or, when `offset` or
 * `limit` is given, exactly the page they select.
 */
export const searchConnectionGroups = programFunction(async function searchConnectionGroups(
  ctx: FunctionContext,
  args: SearchConnectionGroupsArgs,
): Promise<ConnectionGroupInfo[]> {
  const search = parseArguments("searchConnectionGroups", searchArgs, args);
  const request = ctx.request;
  const records =
    search.offset === undefined && search.limit === undefined
      ? await collectAllPages(request, (r) => searchConnectionGroupsPage(r, { q: search.q }), connectionGroupRecord, { what: "connection groups" })
      : (await searchConnectionGroupsPage(request, search)).items;
  return records.map((record) => camelCased(record));
});
