import { webAppUrl } from "../../routing";
import { publicProfile } from "../users/interface";
import { displayName, type Member } from "./model";
import { shownRole } from "./roles";

/**
 * The member record (facts, "Members"): the user as the users area shows them (`users/json.ts`),
 * with their role in this account.
 */

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
    ...publicProfile(user),
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
