import { z } from "zod";
import { HOOK_EVENT_IDS, HOOK_TYPES, type HookEvent, type HookType } from "../../../contract/vocabularies";
import { invalid, parseBody, readObjectBody, readOptionalObjectBody, unwrappedForm } from "../../body";
import { isoTime } from "../../clock";
import { boolean, label } from "../../fields";
import { HttpError, sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { readTimeFilter } from "../../query";
import { findOwnRow, type ApiContext, type Route } from "../../routing";
import { exactly, inPart, searchRecords, type SearchSpace } from "../../search";
import { sortRecords, type SortKeys } from "../../sorting";
import { hookTypesRoute } from "./catalogue";
import { distinctEvents, hookJson, HOOKS, insertHook, nameFields, newSalt, pingJson, type HookRow } from "./model";
import { pingHook } from "./notify";
import { SETTINGS_SCHEMAS, splitSettings, withKeptSecrets, type Settings } from "./settings";

/** Hooks of the caller's account (facts, "Hooks"): managed here, told of events in `notify.ts`. */

const eventsSchema = z.array(z.enum(HOOK_EVENT_IDS as [HookEvent, ...HookEvent[]])).min(1, "must not be empty");

function isHookType(type: unknown): type is HookType {
  return (HOOK_TYPES as readonly unknown[]).includes(type);
}

/** The type's own settings rule when the type is known, so one answer names every problem. */
function settingsSchema(type: unknown): z.ZodType<Settings> {
  return isHookType(type) ? SETTINGS_SCHEMAS[type] : z.record(z.string(), z.unknown());
}

function createSchema(type: unknown) {
  return z.strictObject({
    type: z.enum(HOOK_TYPES),
    events: eventsSchema,
    settings: settingsSchema(type),
    name: label().nullish(),
    active: boolean().optional(),
  });
}

/** No `settings` keeps them; `type` may be sent only unchanged. */
function updateSchema(type: HookType) {
  return z.strictObject({
    type: z.enum(HOOK_TYPES).optional(),
    events: eventsSchema.optional(),
    settings: settingsSchema(type).optional(),
    name: label().nullish(),
    active: boolean().optional(),
  });
}

const sortKeys: SortKeys<HookRow> = {
  created: (hook) => hook.createdAt,
  updated: (hook) => hook.updatedAt,
  name: (hook) => hook.name,
};

/** What a hook search looks at (facts, "Hooks"); hooks have no description, so free text reads the name. */
const hookSearch: SearchSpace<HookRow> = {
  attributes: {
    id: exactly((hook) => hook.id),
    name: inPart((hook) => hook.name),
    type: exactly((hook) => hook.type),
  },
  text: inPart((hook) => hook.name),
};

function sendHook(ctx: ApiContext, status: number, hook: HookRow): void {
  sendJson(ctx.res, status, hookJson(hook, ctx.baseUrl));
}

async function createHook(ctx: ApiContext): Promise<void> {
  // The type picks the settings' schema, so a form's fields wrapped in `hook[...]` are read first.
  const raw = unwrappedForm(createSchema(undefined), await readObjectBody(ctx.req)) as Record<string, unknown>;
  const body = parseBody(createSchema(raw.type), raw);
  const hook = insertHook(ctx.store, {
    accountId: ctx.caller.account.id,
    type: body.type,
    name: body.name,
    active: body.active ?? true,
    events: body.events,
    settings: body.settings,
  });
  sendHook(ctx, 201, hook);
}

/** `type=web,email`: any of the listed types. */
function readTypeFilter(query: URLSearchParams): readonly string[] | undefined {
  const text = query.get("type");
  if (text === null) return undefined;
  const types = text.split(",").map((type) => type.trim());
  if (!types.every(isHookType)) throw new HttpError(400, `type must be a comma-separated list of ${HOOK_TYPES.join(", ")}`);
  return types;
}

/** Newest first unless asked otherwise; `since` keeps hooks updated at or after it. */
function listHooks(ctx: ApiContext): void {
  const types = readTypeFilter(ctx.query);
  const since = readTimeFilter(ctx.query, "since");
  const hooks = ctx.store
    .list(HOOKS, ctx.caller.account.id)
    .filter((hook) => (types === undefined || types.includes(hook.type)) && (since === undefined || Date.parse(hook.updatedAt) >= since));
  sendPage(ctx, sortRecords(hooks, ctx.query, sortKeys, "desc"), (hook) => hookJson(hook, ctx.baseUrl));
}

function searchHooks(ctx: ApiContext): void {
  const hooks = searchRecords(ctx.store.list(HOOKS, ctx.caller.account.id), ctx.query, hookSearch);
  sendPage(ctx, hooks, (hook) => hookJson(hook, ctx.baseUrl));
}

function getHook(ctx: ApiContext): void {
  sendHook(ctx, 200, findOwnRow(ctx, HOOKS));
}

type UpdateBody = z.output<ReturnType<typeof updateSchema>>;

/** The name after an update: given, asked back to its default (null), or following the settings it came from. */
function nameAfter(hook: HookRow, body: UpdateBody, settings: Settings): Pick<HookRow, "name" | "defaultName"> {
  if (body.name !== undefined) return nameFields(hook.type, body.name, settings);
  return hook.defaultName ? nameFields(hook.type, null, settings) : { name: hook.name, defaultName: false };
}

/** Settings sent replace the hook's; the secret ones left out are kept (`withKeptSecrets`). */
function readUpdate(hook: HookRow, raw: Record<string, unknown>): UpdateBody {
  const sent = raw.settings;
  const settings = typeof sent === "object" && sent !== null && !Array.isArray(sent) ? withKeptSecrets(hook.type, sent as Settings, hook.secrets) : sent;
  const body = parseBody(updateSchema(hook.type), sent === undefined ? raw : { ...raw, settings });
  if (body.type !== undefined && body.type !== hook.type) throw invalid([`type cannot be changed (it is ${hook.type})`]);
  return body;
}

/** Outcomes of events the hook no longer has are dropped with them. */
function triggersOf(hook: HookRow, events: readonly HookEvent[]): HookRow["triggers"] {
  return Object.fromEntries(Object.entries(hook.triggers).filter(([event]) => events.includes(event as HookEvent)));
}

function settingsChanges(hook: HookRow, settings: Settings | undefined): Partial<HookRow> {
  if (settings === undefined) return {};
  const { shown, secrets } = splitSettings(hook.type, settings);
  return { settings: shown, secrets };
}

async function updateHook(ctx: ApiContext): Promise<void> {
  const raw = await readObjectBody(ctx.req);
  const hook = findOwnRow(ctx, HOOKS);
  const body = readUpdate(hook, raw);
  const settings = body.settings ?? { ...hook.settings, ...hook.secrets };
  const events = body.events === undefined ? hook.events : distinctEvents(body.events);
  ctx.store.update(HOOKS, hook, {
    ...nameAfter(hook, body, settings),
    ...settingsChanges(hook, body.settings),
    active: body.active ?? hook.active,
    events,
    triggers: triggersOf(hook, events),
    updatedAt: isoTime(ctx.store.clock.now()),
  });
  sendHook(ctx, 200, hook);
}

/** Answers 200 with the deleted hook, as the service does for every delete. */
function deleteHook(ctx: ApiContext): void {
  sendHook(ctx, 200, ctx.store.remove(HOOKS, findOwnRow(ctx, HOOKS)));
}

/** Answers with how each event's last delivery went, and sends the test notification without waiting for it. */
function ping(ctx: ApiContext): void {
  const hook = findOwnRow(ctx, HOOKS);
  pingHook(ctx.store, hook);
  sendJson(ctx.res, 200, pingJson(hook, ctx.baseUrl));
}

/** Takes no body; an empty object is accepted as "nothing to add". */
async function resetSalt(ctx: ApiContext): Promise<void> {
  const raw = await readOptionalObjectBody(ctx.req);
  const hook = findOwnRow(ctx, HOOKS);
  parseBody(z.strictObject({}), raw ?? {});
  ctx.store.update(HOOKS, hook, { salt: newSalt(), updatedAt: isoTime(ctx.store.clock.now()) });
  sendJson(ctx.res, 200, { salt: hook.salt });
}

export const hooksRoutes: readonly Route[] = [
  { pattern: /^\/hooks$/, methods: { GET: listHooks, POST: createHook } },
  { pattern: /^\/hooks\/search$/, methods: { GET: searchHooks } },
  hookTypesRoute,
  { pattern: /^\/hooks\/([^/]+)\/ping$/, methods: { GET: ping } },
  { pattern: /^\/hooks\/([^/]+)\/reset_salt$/, methods: { PUT: resetSalt } },
  { pattern: /^\/hooks\/([^/]+)$/, methods: { GET: getHook, PUT: updateHook, DELETE: deleteHook } },
];
