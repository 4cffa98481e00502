/** The hook types the service offers, and a hook's ping (facts, "Hooks"). */
import { z } from "zod";
import { listHookEvents, listHookTypes, pingHook as ping, type HookEventRecord, type HookTypeRecord, type PingedHookRecord } from "../api/hooks";
import { camelCased, type CamelCased } from "../api/records";
import { programFunction, type FunctionContext } from "./context";
import { parseArguments, recordId } from "./arguments";

export type HookTypeInfo = CamelCased<HookTypeRecord>;
export type HookEventInfo = CamelCased<HookEventRecord>;

export interface PingHookArgs {
  /** A number, or a string of digits (such as a Hook's `id`). */
  hookId: number | string;
}

type PingedEvent = PingedHookRecord["events"][number];

/** The hook and, per event, how its last delivery went; the salt is left out. */
export type HookPing = Omit<CamelCased<PingedHookRecord>, "salt" | "events"> & { events: Array<CamelCased<PingedEvent>> };

const pingArgs = z.strictObject({ hookId: recordId() });

export const getHookTypes = programFunction(async function getHookTypes(ctx: FunctionContext): Promise<HookTypeInfo[]> {
  return (await listHookTypes(ctx.request)).map((record) => camelCased(record));
});

/** The events a hook can be told of (`job.failed`, `cluster`, …), as the service lists them. */
export const getHookEvents = programFunction(async function getHookEvents(ctx: FunctionContext): Promise<HookEventInfo[]> {
  return (await listHookEvents(ctx.request)).map((record) => camelCased(record));
});

/**
 * Asks the service to send the hook a test notification, and returns how each of its events was
 * last delivered. The salt signs deliveries, so it is not part of the answer.
 */
export const pingHook = programFunction(async function pingHook(ctx: FunctionContext, args: PingHookArgs): Promise<HookPing> {
  const { hookId } = parseArguments("pingHook", pingArgs, args);
  const { salt: _salt, events, ...hook } = camelCased(await ping(ctx.request, hookId));
  return { ...hook, events: events.map((event) => camelCased(event)) };
});
