import { defineTable, type Row, type Store } from "../../store";

/** Notifications for one user of an account (spec 4.10; the record's fields are assumed). */
export interface NotificationRow extends Row {
  userId: number;
  title: string;
  body: string;
  read: boolean;
  createdAt: string;
}

export const NOTIFICATIONS = defineTable<NotificationRow>("notifications");

/** Newest first; notifications of the same instant come in reverse order of recording. */
export function notificationsOfUser(store: Store, accountId: number, userId: number): NotificationRow[] {
  return store
    .list(NOTIFICATIONS, accountId)
    .filter((notification) => notification.userId === userId)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
}

export function findNotificationOfUser(store: Store, accountId: number, userId: number, id: number): NotificationRow | undefined {
  const notification = store.find(NOTIFICATIONS, accountId, id);
  return notification?.userId === userId ? notification : undefined;
}

/** Marks the notifications read and returns how many were unread before. */
export function markRead(store: Store, notifications: readonly NotificationRow[]): number {
  const unread = notifications.filter((notification) => !notification.read);
  for (const notification of unread) store.update(NOTIFICATIONS, notification, { read: true });
  return unread.length;
}

/** The JSON of a notification: assumed fields, as the spec does not show the record. */
export function notificationJson(notification: NotificationRow, baseUrl: string): Record<string, unknown> {
  return {
    id: notification.id,
    title: notification.title,
    body: notification.body,
    read: notification.read,
    created_at: notification.createdAt,
    url: `${baseUrl}/notifications/${notification.id}`,
  };
}
