import { ANY_STATUS, SHOWN_MEMBER_ROLES, type MemberRole, type ShownMemberRole } from "../../../contract/vocabularies";
import { HttpError } from "../../http";
import type { MembershipRow } from "./model";

/**
 * What each role may do (facts, "Members": the accounts' `permissions` arrays). Plain members
 * work on every record of the account and may remove other members; admins also invite members
 * and change their roles; the owner alone hands ownership over and may delete the account.
 */

const RECORD_KINDS = ["Cluster", "Connection", "Hook", "Package", "Schedule"] as const;

const MEMBER_PERMISSIONS = [...RECORD_KINDS.flatMap((kind) => [`create${kind}`, `update${kind}`, `delete${kind}`]), "deleteMember"];

const ADMIN_PERMISSIONS = [
  ...MEMBER_PERMISSIONS,
  "updateAccountInfo",
  "viewAccountBillingInfo",
  "updateAccountBillingInfo",
  "inviteMember",
  "updateMemberRole",
];

const PERMISSIONS: Readonly<Record<MemberRole, readonly string[]>> = {
  member: MEMBER_PERMISSIONS,
  admin: ADMIN_PERMISSIONS,
  owner: [...ADMIN_PERMISSIONS, "changeAccountOwner", "deleteAccount"],
};

export function permissionsOf(role: MemberRole): string[] {
  return [...PERMISSIONS[role]];
}

/** The facts show `role` as admin or member: the owner is an admin with `owner: true`. */
export function shownRole(role: MemberRole): ShownMemberRole {
  return role === "member" ? "member" : "admin";
}

/** The `role` filter of `/members` and `/accounts`: `admin` includes the owner, as its records show. */
export function readRoleFilter(query: URLSearchParams): ShownMemberRole | undefined {
  const role = query.get("role") ?? ANY_STATUS;
  if (role === ANY_STATUS) return undefined;
  if (!(SHOWN_MEMBER_ROLES as readonly string[]).includes(role)) {
    throw new HttpError(400, `role must be all or one of ${SHOWN_MEMBER_ROLES.join(", ")}`);
  }
  return role as ShownMemberRole;
}

export function matchesRoleFilter(role: MemberRole, filter: ShownMemberRole | undefined): boolean {
  return filter === undefined || shownRole(role) === filter;
}

export const MANAGERS_ONLY = {
  invite: "Only the account's owner or an admin may invite members.",
  changeRole: "Only the account's owner or an admin may change members' roles.",
} as const;

export const OWNER_ONLY_HANDOVER = "Only the account's owner may hand ownership over.";

/** 403 unless the caller may manage members (`inviteMember`, `updateMemberRole`). */
export function requireManager(caller: MembershipRow, refusal: string): void {
  if (caller.role === "member") throw new HttpError(403, refusal);
}
