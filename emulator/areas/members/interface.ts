/**
 * What others may use of members: who belongs to which account with which role (authentication
 * rests on it, accounts list the caller's), how a role is shown and what it may do, the `role`
 * filter of listings, and the refusal of a caller who manages nothing (accounts use them).
 */
export { matchesRoleFilter, permissionsOf, readRoleFilter, requireManager, shownRole } from "./roles";
export { addMembership, MEMBERSHIPS, membershipOf, membershipsOfUser, membersOf, ownerOf, type MembershipRow } from "./model";
