/**
 * What others may use of members' rules: how a role is shown and what it may do, the `role`
 * filter of listings, and the refusal of a caller who manages nothing (accounts use them).
 */
export { matchesRoleFilter, permissionsOf, readRoleFilter, requireManager, shownRole } from "./roles";
