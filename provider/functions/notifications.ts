/** Marking the caller's notifications as read (spec 4.10). */
import { z } from "zod";
import { markNotificationsRead as mark } from "../api/notifications";
import { programFunction, type FunctionContext } from "./context";
import { parseArguments, recordId } from "./arguments";

export interface MarkNotificationsReadArgs {
  /** The one notification to mark; every notification when left out. */
  id?: number | string;
}

export interface NotificationsMarked {
  /** How many went from unread to read, when the service says (the spec shows no body). */
  marked: number | undefined;
}

const markArgs = z.strictObject({ id: recordId().optional() });

/** Not read-only like the others: it changes what the service shows as unread, in a preview too. */
export const markNotificationsRead = programFunction(async function markNotificationsRead(
  ctx: FunctionContext,
  args: MarkNotificationsReadArgs = {},
): Promise<NotificationsMarked> {
  const { id } = parseArguments("markNotificationsRead", markArgs, args);
  return { marked: await mark(ctx.request, id === undefined ? {} : { id }) };
});
