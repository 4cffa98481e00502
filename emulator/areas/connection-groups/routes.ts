import { z } from "zod";
import { canJoinGroups } from "../../../contract/limits";
import { invalid, parseBody, readObjectBody } from "../../body";
import { isoTime } from "../../clock";
import { integer, label, nullableText } from "../../fields";
import { sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { readSearchTerm } from "../../query";
import { findOwnRow, type ApiContext, type Route } from "../../routing";
import { connectionFacts } from "../connections/interface";
import { CONNECTION_GROUPS, connectionGroupJson, groupsOfAccount, nameTaken, sortedIds, type ConnectionGroupRow } from "./model";

/**
 * Connection groups of the caller's account. Update and search are documented (spec 4.5 and
 * the facts); create, list, get and delete follow the API's pattern for other collections.
 */

const groupFields = z.strictObject({
  name: label(),
  description: nullableText().optional(),
});

const assignment = z.strictObject({
  id: integer().positive("must be a positive integer"),
  type: z.string(),
});

const createBodySchema = z.strictObject({
  connection_group: groupFields,
  connections: z.array(assignment).optional(),
});

const updateBodySchema = z.strictObject({
  connection_group: groupFields.partial().optional(),
  connections: z.array(assignment).optional(),
});

type Assignment = z.output<typeof assignment>;

/** Why one listed connection cannot be assigned, if it cannot. */
function assignmentProblem(ctx: ApiContext, item: Assignment, index: number, list: readonly Assignment[]): string | undefined {
  const at = `connections[${index}]`;
  if (list.findIndex((other) => other.id === item.id) !== index) return `${at}.id: connection ${item.id} is listed more than once`;
  const connection = connectionFacts(ctx.store, ctx.caller.account.id, item.id);
  if (connection === undefined) return `${at}.id: no connection ${item.id} in this account`;
  if (connection.type !== item.type) return `${at}.type: connection ${item.id} has type ${connection.type}, not ${item.type}`;
  if (!canJoinGroups(connection.type)) {
    return `${at}.id: connection ${item.id} has type ${connection.type}; only database and cloud-storage connections join groups`;
  }
  return undefined;
}

/** What the body asks that the account's records forbid: a name taken, connections that cannot join. */
function checkAgainstAccount(ctx: ApiContext, name: string | undefined, list: readonly Assignment[] = [], except?: number): void {
  const taken = name !== undefined && nameTaken(ctx.store, ctx.caller.account.id, name, except);
  const problems = [
    ...(taken ? ["connection_group.name has already been taken"] : []),
    ...list.flatMap((item, index) => assignmentProblem(ctx, item, index, list) ?? []),
  ];
  if (problems.length > 0) throw invalid(problems);
}

function idsOf(list: readonly Assignment[]): number[] {
  return sortedIds(list.map((item) => item.id));
}

function groupJsonFor(ctx: ApiContext): (group: ConnectionGroupRow) => Record<string, unknown> {
  return (group) => connectionGroupJson(ctx.store, group);
}

async function createGroup(ctx: ApiContext): Promise<void> {
  const body = parseBody(createBodySchema, await readObjectBody(ctx.req));
  checkAgainstAccount(ctx, body.connection_group.name, body.connections);
  const time = isoTime(ctx.store.clock.now());
  const group = ctx.store.insert(CONNECTION_GROUPS, {
    accountId: ctx.caller.account.id,
    name: body.connection_group.name,
    description: body.connection_group.description ?? null,
    connectionIds: idsOf(body.connections ?? []),
    modifiedByUserId: ctx.caller.user.id,
    createdAt: time,
    updatedAt: time,
  });
  sendJson(ctx.res, 201, groupJsonFor(ctx)(group));
}

type GroupChanges = Partial<Pick<ConnectionGroupRow, "name" | "description" | "connectionIds">>;

/** Only what differs, so an update that changes nothing leaves `modified_by` and `updated_at` alone. */
function changesOf(group: ConnectionGroupRow, body: z.output<typeof updateBodySchema>): GroupChanges {
  const changes: GroupChanges = {};
  const fields = body.connection_group ?? {};
  if (fields.name !== undefined && fields.name !== group.name) changes.name = fields.name;
  if (fields.description !== undefined && fields.description !== group.description) changes.description = fields.description;
  if (body.connections !== undefined) {
    const ids = idsOf(body.connections);
    if (ids.join(",") !== group.connectionIds.join(",")) changes.connectionIds = ids;
  }
  return changes;
}

async function updateGroup(ctx: ApiContext): Promise<void> {
  // A missing group is reported before what is wrong with the body meant for it.
  const raw = await readObjectBody(ctx.req);
  const group = findOwnRow(ctx, CONNECTION_GROUPS);
  const body = parseBody(updateBodySchema, raw);
  checkAgainstAccount(ctx, body.connection_group?.name, body.connections, group.id);
  const changes = changesOf(group, body);
  if (Object.keys(changes).length > 0) {
    const updatedAt = isoTime(ctx.store.clock.now());
    ctx.store.update(CONNECTION_GROUPS, group, { ...changes, modifiedByUserId: ctx.caller.user.id, updatedAt });
  }
  sendJson(ctx.res, 200, groupJsonFor(ctx)(group));
}

function listGroups(ctx: ApiContext): void {
  sendPage(ctx, groupsOfAccount(ctx.store, ctx.caller.account.id), groupJsonFor(ctx));
}

/** `q` matches name or description as a substring, in any case (spec 4.5). */
function searchGroups(ctx: ApiContext): void {
  const needle = readSearchTerm(ctx.query);
  const matches = (text: string | null): boolean => typeof text === "string" && text.toLowerCase().includes(needle);
  const found = groupsOfAccount(ctx.store, ctx.caller.account.id).filter((group) => matches(group.name) || matches(group.description));
  sendPage(ctx, found, groupJsonFor(ctx));
}

function getGroup(ctx: ApiContext): void {
  sendJson(ctx.res, 200, groupJsonFor(ctx)(findOwnRow(ctx, CONNECTION_GROUPS)));
}

/** Answers 200 with the deleted group, as the service does for every delete. */
function deleteGroup(ctx: ApiContext): void {
  const group = findOwnRow(ctx, CONNECTION_GROUPS);
  const json = groupJsonFor(ctx)(group);
  ctx.store.remove(CONNECTION_GROUPS, group);
  sendJson(ctx.res, 200, json);
}

export const connectionGroupsRoutes: readonly Route[] = [
  { pattern: /^\/connection_groups$/, methods: { GET: listGroups, POST: createGroup } },
  { pattern: /^\/connection_groups\/search$/, methods: { GET: searchGroups } },
  { pattern: /^\/connection_groups\/([^/]+)$/, methods: { GET: getGroup, PUT: updateGroup, DELETE: deleteGroup } },
];
