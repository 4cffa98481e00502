import { randomBytes } from "node:crypto";
import { HOOK_EVENTS, type HookEvent, type HookTriggerStatus, type HookType } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import { defineTable, type NewRowPlace, type Row, type Store } from "../../store";
import { defaultHookName, splitSettings, type Settings } from "./settings";

/** Hooks: who is told, and how, when a job or a cluster changes (facts, "Hooks"). */

/** How the last delivery for one of a hook's events went, for the ping answer. */
export interface HookTrigger {
  status: HookTriggerStatus;
  time: string | null;
  response: Record<string, unknown>;
}

export interface HookRow extends Row {
  name: string;
  /** Derived from the settings rather than given, so it follows them when they change. */
  defaultName: boolean;
  type: HookType;
  active: boolean;
  events: HookEvent[];
  /** The settings responses show. */
  settings: Settings;
  /** Settings no response shows (`HOOK_SECRET_SETTINGS`), which deliveries use. */
  secrets: Record<string, string>;
  salt: string;
  /** Per event of `events`, the last delivery's outcome; an event never triggered has none. */
  triggers: Partial<Record<HookEvent, HookTrigger>>;
  createdAt: string;
  updatedAt: string;
}

export const HOOKS = defineTable<HookRow>("hooks");

/** 64 hex characters, as in the facts' example. */
export function newSalt(): string {
  return randomBytes(32).toString("hex");
}

/** A group id (`job`) covers each event of its group (`job.failed`). */
export function covers(subscribed: string, event: string): boolean {
  return subscribed === event || event.startsWith(`${subscribed}.`);
}

/** The events in the order given, each once: `events` is a set to the service. */
export function distinctEvents(events: readonly HookEvent[]): HookEvent[] {
  return [...new Set(events)];
}

/** The name a hook takes: the one given, else the settings' (`null` asks for it too). */
export function nameFields(type: HookType, name: string | null | undefined, settings: Settings): Pick<HookRow, "name" | "defaultName"> {
  return name === null || name === undefined ? { name: defaultHookName(type, settings), defaultName: true } : { name, defaultName: false };
}

export interface NewHook extends NewRowPlace {
  type: HookType;
  name?: string | null;
  active: boolean;
  events: HookEvent[];
  /** Valid settings of the type, secret ones included. */
  settings: Settings;
  salt?: string;
}

export function insertHook(store: Store, fields: NewHook): HookRow {
  const now = isoTime(store.clock.now());
  const { shown, secrets } = splitSettings(fields.type, fields.settings);
  return store.insert(HOOKS, {
    id: fields.id,
    accountId: fields.accountId,
    ...nameFields(fields.type, fields.name, fields.settings),
    type: fields.type,
    active: fields.active,
    events: distinctEvents(fields.events),
    settings: shown,
    secrets,
    salt: fields.salt ?? newSalt(),
    triggers: {},
    createdAt: now,
    updatedAt: now,
  });
}

export function hookUrl(baseUrl: string, id: number): string {
  return `${baseUrl}/hooks/${id}`;
}

/** The service's JSON for a hook (facts, "Hook response fields"): never a secret setting. */
export function hookJson(hook: HookRow, baseUrl: string): Record<string, unknown> {
  return {
    id: hook.id,
    name: hook.name,
    type: hook.type,
    active: hook.active,
    events: hook.events,
    settings: hook.settings,
    salt: hook.salt,
    created_at: hook.createdAt,
    updated_at: hook.updatedAt,
    url: hookUrl(baseUrl, hook.id),
  };
}

/** Each event's name as the catalogue (`GET /hook_events`) shows it, for the ping answer and messages. */
export const EVENT_NAMES: ReadonlyMap<string, string> = new Map(HOOK_EVENTS.map((event) => [event.id, event.name]));

const NEVER_TRIGGERED: HookTrigger = { status: "none", time: null, response: {} };

/** The ping answer: the hook, with each event as an object telling how its last delivery went. */
export function pingJson(hook: HookRow, baseUrl: string): Record<string, unknown> {
  const events = hook.events.map((id) => {
    const trigger = hook.triggers[id] ?? NEVER_TRIGGERED;
    return { id, name: EVENT_NAMES.get(id), last_response: trigger.response, last_trigger_status: trigger.status, last_trigger_time: trigger.time };
  });
  return { ...hookJson(hook, baseUrl), events };
}

/** Records a delivery's outcome on each of the hook's events it answered to, if the hook still exists. */
export function recordTrigger(store: Store, hook: HookRow, answered: readonly HookEvent[], trigger: HookTrigger): void {
  const current = store.find(HOOKS, hook.accountId, hook.id);
  if (current === undefined || answered.length === 0) return;
  const triggers = { ...current.triggers };
  for (const event of answered) if (current.events.includes(event)) triggers[event] = trigger;
  store.update(HOOKS, current, { triggers });
}
