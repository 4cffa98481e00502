import { createHash } from "node:crypto";
import type { Store, UserRecord } from "../../store";
import { NOTIFICATIONS } from "../notifications/model";

/**
 * The user record (facts, "Users"). The emulator keeps no profile beyond name and email:
 * `gravatar_email` is the email, `location` is null, the time zone UTC. An API key is never
 * shown: the facts return it only to a caller who sends the password, and the emulator has no
 * passwords.
 */

/** A Gravatar address, as the service shows avatars; nothing fetches it. */
export function avatarUrl(email: string): string {
  const hash = createHash("md5").update(email.trim().toLowerCase()).digest("hex");
  return `https://www.gravatar.com/avatar/${hash}`;
}

function notificationCounts(store: Store, user: UserRecord): { all: number; unread: number } {
  const mine = store.list(NOTIFICATIONS).filter((row) => row.userId === user.id);
  return { all: mine.length, unread: mine.filter((row) => !row.read).length };
}

/** The caller (`GET {host}/user`); notifications are counted over every account of the user. */
export function userJson(store: Store, user: UserRecord, origin: string): Record<string, unknown> {
  const notifications = notificationCounts(store, user);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    gravatar_email: user.email,
    avatar_url: avatarUrl(user.email),
    location: null,
    time_zone: "UTC",
    time_zone_info: { name: "UTC", identifier: "Etc/UTC", offset: "+0000" },
    confirmed: user.confirmed,
    confirmed_at: user.confirmedAt,
    notifications_count: notifications.all,
    unread_notifications_count: notifications.unread,
    notification_settings: { email: true, web: true },
    receive_newsletter: false,
    last_login: null,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
    url: `${origin}/user`,
  };
}
