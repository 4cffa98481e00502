import { createHash } from "node:crypto";
import { TIME_ZONES, type TimeZoneEntry } from "../../../contract/catalogues";
import type { Store } from "../../store";
import { notificationCounts } from "../notifications/interface";
import type { UserRecord } from "./model";

/**
 * The user record (facts, "Users"): what the user set with `PUT {host}/user`, else the defaults
 * of a user who never changed their profile. An API key is never shown: the facts return it only
 * to a caller who sends the password, and the emulator has no passwords.
 */

export const DEFAULT_TIME_ZONE = "UTC";
export const DEFAULT_NOTIFICATION_SETTINGS = { email: true, web: true } as const;

/** A Gravatar address, as the service shows avatars; nothing fetches it. */
export function avatarUrl(email: string): string {
  const hash = createHash("md5").update(email.trim().toLowerCase()).digest("hex");
  return `https://www.gravatar.com/avatar/${hash}`;
}

/** What a user shows of themselves wherever they appear, as a member too. */
export function publicProfile(user: UserRecord): { gravatar_email: string; avatar_url: string; location: string | null } {
  const gravatarEmail = user.settings?.gravatarEmail ?? user.email;
  return { gravatar_email: gravatarEmail, avatar_url: avatarUrl(gravatarEmail), location: user.settings?.location ?? null };
}

export function timeZoneEntry(id: string): TimeZoneEntry | undefined {
  return TIME_ZONES.find((entry) => entry.id === id);
}

/** `+0000` from the catalogue's `(GMT+00:00)`: the zone's standard offset, as `/timezones` shows it. */
function standardOffset(entry: TimeZoneEntry): string {
  const match = /^\(GMT([+-]\d\d):(\d\d)\)/.exec(entry.name);
  return match === null ? "+0000" : `${match[1]}${match[2]}`;
}

function timeZoneJson(user: UserRecord): { time_zone: string; time_zone_info: Record<string, string> } {
  const entry = timeZoneEntry(user.settings?.timeZone ?? DEFAULT_TIME_ZONE) ?? timeZoneEntry(DEFAULT_TIME_ZONE)!;
  return { time_zone: entry.id, time_zone_info: { name: entry.id, identifier: entry.iana, offset: standardOffset(entry) } };
}

/** The caller (`GET {host}/user`); notifications are counted over every account of the user. */
export function userJson(store: Store, user: UserRecord, origin: string): Record<string, unknown> {
  const notifications = notificationCounts(store, user.id);
  const { gravatar_email, avatar_url, location } = publicProfile(user);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    gravatar_email,
    avatar_url,
    location,
    ...timeZoneJson(user),
    confirmed: user.confirmed,
    confirmed_at: user.confirmedAt,
    notifications_count: notifications.all,
    unread_notifications_count: notifications.unread,
    notification_settings: { ...DEFAULT_NOTIFICATION_SETTINGS, ...user.settings?.notificationSettings },
    receive_newsletter: user.settings?.receiveNewsletter ?? false,
    last_login: null,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
    url: `${origin}/user`,
  };
}
