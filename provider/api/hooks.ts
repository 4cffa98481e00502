/** Hooks: `{base_url}/hooks` (facts, "Hooks"). */
import { z } from "zod";
import type { RequestFn } from "../client/http";
import { collection } from "./collection";
import { parseRecord } from "./records";

export const hookRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  active: z.boolean(),
  events: z.array(z.string()),
  settings: z.record(z.string(), z.unknown()),
  salt: z.string(),
  /** Not in the service's documented answer; used, when present, to tell a hook made just now. */
  created_at: z.string().optional(),
});
export type HookRecord = z.output<typeof hookRecord>;

export const hooks = collection({ path: "/hooks", record: hookRecord, what: "a hook" });

/** `updateHook`: the service requires `settings` on every update; `events`, when sent, replaces the list. */
export const { create: createHook, get: getHook, update: updateHook, delete: deleteHook } = hooks;

/** A new salt: signatures made with the old one stop matching. */
export async function resetHookSalt(request: RequestFn, id: string | number): Promise<string> {
  const response = await request({ method: "PUT", path: `${hooks.pathOf(id)}/reset_salt` });
  return parseRecord(z.object({ salt: z.string() }), response.body, "a hook's salt").salt;
}

/** The first page of the account's hooks of one type, newest first; follow its `Link` for the rest. */
export function listHooksRequest(type: string) {
  return { method: "GET" as const, path: "/hooks", query: { type, sort: "created", direction: "desc" } };
}

export const hookTypeRecord = z.object({
  type: z.string(),
  name: z.string(),
  description: z.string(),
  groups: z.array(z.object({ group_type: z.string(), group_name: z.string() })),
});
export type HookTypeRecord = z.output<typeof hookTypeRecord>;

export async function listHookTypes(request: RequestFn): Promise<HookTypeRecord[]> {
  const response = await request({ method: "GET", path: "/hooks/types" });
  return parseRecord(z.array(hookTypeRecord), response.body, "the hook types");
}

/** The ping answer: the hook, each event with how its last delivery went; the service sends a test notification. */
export const pingedHookRecord = hookRecord.extend({
  events: z.array(
    z.object({
      id: z.string(),
      name: z.string().optional(),
      last_trigger_status: z.string(),
      last_trigger_time: z.string().nullable(),
      last_response: z.record(z.string(), z.unknown()),
    }),
  ),
});
export type PingedHookRecord = z.output<typeof pingedHookRecord>;

export async function pingHook(request: RequestFn, id: string | number): Promise<PingedHookRecord> {
  const response = await request({ method: "GET", path: `${hooks.pathOf(id)}/ping` });
  return parseRecord(pingedHookRecord, response.body, "a pinged hook");
}

export const hookEventRecord = z.object({ id: z.string(), group_name: z.string(), name: z.string() });
export type HookEventRecord = z.output<typeof hookEventRecord>;

/** The event catalogue, at the host's root rather than under the account (facts, "Hooks"). */
export async function listHookEvents(request: RequestFn): Promise<HookEventRecord[]> {
  const response = await request({ method: "GET", path: "/hook_events", atHostRoot: true });
  return parseRecord(z.array(hookEventRecord), response.body, "the hook events");
}
