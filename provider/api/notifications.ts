/**
 * The caller's notifications: `{base_url}/notifications` (spec 4.10). The spec shows neither the
 * record's fields nor the mark response; both here are the ones the project assumes.
 */
import { z } from "zod";
import type { RequestFn } from "../client/http";

export const notificationRecord = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  read: z.boolean(),
  created_at: z.string(),
  url: z.string(),
});
export type NotificationRecord = z.output<typeof notificationRecord>;
export const NOTIFICATION_FIELDS = Object.keys(notificationRecord.shape) as readonly (keyof NotificationRecord)[];

/** The assumed answer to a mark request: how many notifications went from unread to read. */
export const notificationsMarkedRecord = z.object({ marked: z.number().int().nonnegative() });
export const NOTIFICATIONS_MARKED_FIELDS = Object.keys(notificationsMarkedRecord.shape) as readonly string[];

export interface MarkNotificationsRequest {
  /** The one notification to mark; all of them when left out. */
  id?: number;
}

/**
 * Marks one notification, or all of them, as read. Returns how many changed when the service
 * says so, and undefined otherwise, since the response body is not part of the spec.
 */
export async function markNotificationsRead(request: RequestFn, mark: MarkNotificationsRequest = {}): Promise<number | undefined> {
  const body = mark.id === undefined ? {} : { id: mark.id };
  const response = await request({ method: "POST", path: "/notifications/mark", body, idempotent: true });
  const parsed = notificationsMarkedRecord.safeParse(response.body);
  return parsed.success ? parsed.data.marked : undefined;
}
