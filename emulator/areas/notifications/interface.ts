import { isoTime } from "../../clock";
import type { Store } from "../../store";
import { NOTIFICATIONS } from "./model";

/**
 * What others may do with notifications, without their rows: tell a user something (watchers
 * do, `emulator/watchers.ts`) and count a user's notifications (the user's JSON does).
 */

export interface NewNotification {
  accountId: number;
  userId: number;
  title: string;
  body: string;
}

/** An unread notification for the user, made at `atMs`. */
export function notifyUser(store: Store, notification: NewNotification, atMs: number): void {
  store.insert(NOTIFICATIONS, { ...notification, read: false, createdAt: isoTime(atMs) });
}

/** The user's notifications over every account, and how many of them are unread. */
export function notificationCounts(store: Store, userId: number): { all: number; unread: number } {
  const mine = store.list(NOTIFICATIONS).filter((row) => row.userId === userId);
  return { all: mine.length, unread: mine.filter((row) => !row.read).length };
}
