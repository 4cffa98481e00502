import { createHash } from "node:crypto";
import { displayName, type Member } from "../../memberships";
import { webAppUrl } from "../../routing";
import type { Store, UserRecord } from "../../store";
import { NOTIFICATIONS } from "../notifications/model";
import { shownRole } from "./roles";

/**
 * The member and user records (facts, "Members" and "Users"). The emulator keeps no profile
 * beyond name and email: `gravatar_email` is the email, `location` is null, the time zone UTC.
 * An API key is never shown: the facts return it only to a caller who sends the password, and
 * the emulator has no passwords.
 */

/** A Gravatar address, as the service shows avatars; nothing fetches it. */
export function avatarUrl(email: string): string {
  const hash = createHash("md5").update(email.trim().toLowerCase()).digest("hex");
  return `https://www.gravatar.com/avatar/${hash}`;
}

/** A member changes when the user does, or their role in this account. */
export function memberUpdatedAt({ user, membership }: Member): string {
  // biome-ignore lint/complexity/useMathMinMax: ISO-8601 timestamps, compared as text
  return user.updatedAt > membership.updatedAt ? user.updatedAt : membership.updatedAt;
}

/** `created_at` is when the user joined the account. */
export function memberJson(member: Member, baseUrl: string): Record<string, unknown> {
  const { user, membership } = member;
  return {
    id: user.id,
    name: user.name,
    display_name: displayName(user),
    email: user.email,
    gravatar_email: user.email,
    avatar_url: avatarUrl(user.email),
    location: null,
    confirmed: user.confirmed,
    confirmed_at: user.confirmedAt,
    role: shownRole(membership.role),
    owner: membership.role === "owner",
    created_at: membership.createdAt,
    updated_at: memberUpdatedAt(member),
    url: `${baseUrl}/members/${user.id}`,
    html_url: `${webAppUrl(baseUrl)}/settings/members/${user.id}`,
  };
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
