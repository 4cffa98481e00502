import { z } from "zod";
import { MAX_NAME_LENGTH } from "../../contract/text";
import { HttpError, notFound, sendJson } from "../http";
import { invalid, parseBody, readObjectBody } from "../body";
import {
  CONNECTION_GROUPS,
  connectionGroupJson,
  groupsOfAccount,
  nameTaken,
  type ConnectionGroupRow,
} from "../model/connection-groups";
import { canJoinGroups, CONNECTIONS } from "../model/connections";
import { paginate } from "../pagination";
import { parseId, type ApiContext, type Route } from "../routing";

/**
 * Connection groups of the caller's account. Update and search are documented (spec 4.5 and
 * the facts); create, list, get and delete follow the API's pattern for other collections.
 */


const nameSchema = z
  .string()
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
  .refine((name) => name.trim() !== "", "must not be blank");

const groupFields = z.strictObject({
  name: nameSchema,
  description: z.string({ error: "must be a string or null" }).nullable().optional(),
});

const assignment = z.strictObject({
  id: z.number().int().positive("must be a positive integer"),
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

const EXPECTED: Readonly<Record<string, string>> = {
  string: "a string",
  number: "an integer",
  int: "an integer",
  object: "an object",
  array: "an array",
};

/** Zod's wording names types; clients need to know which field to fix and how. */
function issueText(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== "invalid_type") return undefined;
  if (issue.input === undefined) return "is required";
  return `must be ${EXPECTED[issue.expected] ?? issue.expected}`;
}

/** `connections[1].id`, the way the client wrote the body. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`)).join("");
}

function issueMessages(issue: z.core.$ZodIssue): string[] {
  const prefix = issue.path.length === 0 ? "" : `${fieldPath(issue.path)}.`;
  if (issue.code === "unrecognized_keys") return issue.keys.map((key) => `${prefix}${key} is not a known field`);
  return [`${fieldPath(issue.path)} ${issue.message}`];
}

const WORDING = { error: issueText, problems: issueMessages };

/** Why one listed connection cannot be assigned, if it cannot. */
function assignmentProblem(ctx: ApiContext, item: Assignment, index: number, list: readonly Assignment[]): string | undefined {
  const at = `connections[${index}]`;
  if (list.findIndex((other) => other.id === item.id) !== index) return `${at}.id: connection ${item.id} is listed more than once`;
  const connection = ctx.store.find(CONNECTIONS, ctx.caller.account.id, item.id);
  if (connection === undefined) return `${at}.id: no connection ${item.id} in this account`;
  if (connection.type !== item.type) return `${at}.type: connection ${item.id} has type ${connection.type}, not ${item.type}`;
  if (!canJoinGroups(connection.type)) {
    return `${at}.id: connection ${item.id} has type ${connection.type}; only database and cloud-storage connections join groups`;
  }
  return undefined;
}

function assignmentProblems(ctx: ApiContext, list: readonly Assignment[] = []): string[] {
  return list.flatMap((item, index) => assignmentProblem(ctx, item, index, list) ?? []);
}

function nameProblems(ctx: ApiContext, name: string | undefined, except?: number): string[] {
  if (name === undefined || !nameTaken(ctx.store, ctx.caller.account.id, name, except)) return [];
  return ["connection_group.name has already been taken"];
}

/** Assignments are a set: kept in id order, so the same set always reads the same. */
function idsOf(list: readonly Assignment[]): number[] {
  return list.map((item) => item.id).sort((a, b) => a - b);
}

function now(ctx: ApiContext): string {
  return new Date(ctx.store.clock.now()).toISOString();
}

function sendGroup(ctx: ApiContext, status: number, group: ConnectionGroupRow): void {
  sendJson(ctx.res, status, connectionGroupJson(ctx.store, ctx.caller.account, group));
}

function findGroup(ctx: ApiContext): ConnectionGroupRow {
  const group = ctx.store.find(CONNECTION_GROUPS, ctx.caller.account.id, parseId(ctx.params[0]));
  if (group === undefined) throw notFound();
  return group;
}

async function createGroup(ctx: ApiContext): Promise<void> {
  const body = parseBody(createBodySchema, await readObjectBody(ctx.req), WORDING);
  const problems = [...nameProblems(ctx, body.connection_group.name), ...assignmentProblems(ctx, body.connections)];
  if (problems.length > 0) throw invalid(problems);
  const time = now(ctx);
  const group = ctx.store.insert(CONNECTION_GROUPS, {
    accountId: ctx.caller.account.id,
    name: body.connection_group.name,
    description: body.connection_group.description ?? null,
    connectionIds: idsOf(body.connections ?? []),
    modifiedByUserId: ctx.caller.user.id,
    createdAt: time,
    updatedAt: time,
  });
  sendGroup(ctx, 201, group);
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
  const group = findGroup(ctx);
  const body = parseBody(updateBodySchema, raw, WORDING);
  const problems = [...nameProblems(ctx, body.connection_group?.name, group.id), ...assignmentProblems(ctx, body.connections)];
  if (problems.length > 0) throw invalid(problems);
  const changes = changesOf(group, body);
  if (Object.keys(changes).length > 0) {
    ctx.store.update(CONNECTION_GROUPS, group, { ...changes, modifiedByUserId: ctx.caller.user.id, updatedAt: now(ctx) });
  }
  sendGroup(ctx, 200, group);
}

function sendGroupPage(ctx: ApiContext, groups: readonly ConnectionGroupRow[]): void {
  const page = paginate(groups, ctx.query, { origin: ctx.origin, pathname: ctx.pathname });
  const items = page.items.map((group) => connectionGroupJson(ctx.store, ctx.caller.account, group));
  sendJson(ctx.res, 200, items, page.headers);
}

function listGroups(ctx: ApiContext): void {
  sendGroupPage(ctx, groupsOfAccount(ctx.store, ctx.caller.account.id));
}

/** `q` matches name or description as a substring, in any case (spec 4.5). */
function searchGroups(ctx: ApiContext): void {
  const q = ctx.query.get("q");
  if (q === null || q.trim() === "") throw new HttpError(400, "q is required");
  const needle = q.trim().toLowerCase();
  const matches = (text: string | null): boolean => text !== null && text.toLowerCase().includes(needle);
  sendGroupPage(ctx, groupsOfAccount(ctx.store, ctx.caller.account.id).filter((group) => matches(group.name) || matches(group.description)));
}

function getGroup(ctx: ApiContext): void {
  sendGroup(ctx, 200, findGroup(ctx));
}

/** Answers 200 with the deleted group, as the service does for every delete. */
function deleteGroup(ctx: ApiContext): void {
  const group = findGroup(ctx);
  const json = connectionGroupJson(ctx.store, ctx.caller.account, group);
  ctx.store.remove(CONNECTION_GROUPS, group);
  sendJson(ctx.res, 200, json);
}

export const connectionGroupsRoutes: readonly Route[] = [
  { pattern: /^\/connection_groups$/, methods: { GET: listGroups, POST: createGroup } },
  { pattern: /^\/connection_groups\/search$/, methods: { GET: searchGroups } },
  { pattern: /^\/connection_groups\/([^/]+)$/, methods: { GET: getGroup, PUT: updateGroup, DELETE: deleteGroup } },
];
