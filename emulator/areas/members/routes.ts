import { z } from "zod";
import { MANAGED_MEMBER_ROLES, MEMBER_ROLES, type ManagedMemberRole } from "../../../contract/vocabularies";
import { invalid, parseBody, readObjectBody } from "../../body";
import { isoTime } from "../../clock";
import { label } from "../../fields";
import { HttpError, notFound, sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { readTimeFilter } from "../../query";
import { parseId, type ApiContext, type Route } from "../../routing";
import { sortRecords, type SortKeys } from "../../sorting";
import type { Store } from "../../store";
import { addUser, userByEmail, userById, type UserRecord } from "../users/interface";
import { memberJson, memberUpdatedAt } from "./json";
import { addMembership, MEMBERSHIPS, membershipOf, membersOf, type Member } from "./model";
import { matchesRoleFilter, MANAGERS_ONLY, OWNER_ONLY_HANDOVER, readRoleFilter, requireManager } from "./roles";

/** The members of the caller's account (facts, "Members"); the rules are listed in `index.ts`. */

export const REFUSALS = {
  ownerRemoved: "The account's owner cannot be removed: hand ownership to another member first.",
  ownerDemoted: "The account's owner cannot be demoted: hand ownership to another member first.",
  unconfirmedOwner: "Ownership can only be handed to a confirmed member: this user has not signed up yet.",
} as const;

const addSchema = z.strictObject({
  email: z.email({ error: "must be an email address" }),
  name: label().optional(),
  role: z.enum(MANAGED_MEMBER_ROLES).optional(),
});

const changeSchema = z.strictObject({ role: z.enum(MEMBER_ROLES) });

/** A member with the id sorting and paging need: the user's, as in the API. */
type ListedMember = Member & { id: number };

const sortKeys: SortKeys<ListedMember> = {
  created: (member) => member.membership.createdAt,
  updated: memberUpdatedAt,
  name: (member) => member.user.name.toLowerCase(),
  email: (member) => member.user.email.toLowerCase(),
};

function findMember(ctx: ApiContext): Member {
  const userId = parseId(ctx.params[0]);
  const membership = membershipOf(ctx.store, ctx.caller.account.id, userId);
  const user = userById(ctx.store, userId);
  if (membership === undefined || user === undefined) throw notFound();
  return { user, membership };
}

function sendMember(ctx: ApiContext, member: Member): void {
  sendJson(ctx.res, 200, memberJson(member, ctx.baseUrl));
}

function listMembers(ctx: ApiContext): void {
  const role = readRoleFilter(ctx.query);
  const email = ctx.query.get("email")?.toLowerCase();
  const since = readTimeFilter(ctx.query, "since");
  const members = membersOf(ctx.store, ctx.caller.account.id)
    .filter((member) => matchesRoleFilter(member.membership.role, role))
    .filter((member) => email === undefined || member.user.email.toLowerCase() === email)
    .filter((member) => since === undefined || Date.parse(memberUpdatedAt(member)) >= since)
    .map((member) => ({ ...member, id: member.user.id }));
  sendPage(ctx, sortRecords(members, ctx.query, sortKeys, "desc"), (member) => memberJson(member, ctx.baseUrl));
}

/** An invitation: a user who has not signed up, so has no key and is not confirmed. */
function invitedUser(store: Store, email: string, name: string | undefined): UserRecord {
  const now = isoTime(store.clock.now());
  return addUser(store, { name: name ?? "", email, confirmed: false, confirmedAt: null, createdAt: now, updatedAt: now });
}

async function addMember(ctx: ApiContext): Promise<void> {
  requireManager(ctx.caller.membership, MANAGERS_ONLY.invite);
  const body = parseBody(addSchema, await readObjectBody(ctx.req));
  const known = userByEmail(ctx.store, body.email);
  if (known !== undefined && membershipOf(ctx.store, ctx.caller.account.id, known.id) !== undefined) {
    throw invalid([`email ${body.email} is already a member of this account`]);
  }
  const user = known ?? invitedUser(ctx.store, body.email, body.name);
  const membership = addMembership(ctx.store, ctx.caller.account.id, user, body.role ?? "member");
  sendMember(ctx, { user, membership });
}

function changeManagedRole(ctx: ApiContext, target: Member, role: ManagedMemberRole): void {
  if (target.membership.role === "owner") throw new HttpError(422, REFUSALS.ownerDemoted);
  if (target.membership.role === role) return;
  ctx.store.update(MEMBERSHIPS, target.membership, { role, updatedAt: isoTime(ctx.store.clock.now()) });
}

/** The owner hands over: the new owner is a confirmed member, the old one stays as an admin. */
function handOverOwnership(ctx: ApiContext, target: Member): void {
  if (target.membership.role === "owner") return;
  if (ctx.caller.membership.role !== "owner") throw new HttpError(403, OWNER_ONLY_HANDOVER);
  if (!target.user.confirmed) throw new HttpError(422, REFUSALS.unconfirmedOwner);
  const updatedAt = isoTime(ctx.store.clock.now());
  ctx.store.update(MEMBERSHIPS, ctx.caller.membership, { role: "admin", updatedAt });
  ctx.store.update(MEMBERSHIPS, target.membership, { role: "owner", updatedAt });
}

async function changeRole(ctx: ApiContext): Promise<void> {
  const target = findMember(ctx);
  requireManager(ctx.caller.membership, MANAGERS_ONLY.changeRole);
  const { role } = parseBody(changeSchema, await readObjectBody(ctx.req));
  if (role === "owner") handOverOwnership(ctx, target);
  else changeManagedRole(ctx, target, role);
  sendMember(ctx, target);
}

/** Any member may remove any member but the owner, themselves included; the user remains. */
function removeMember(ctx: ApiContext): void {
  const target = findMember(ctx);
  if (target.membership.role === "owner") throw new HttpError(422, REFUSALS.ownerRemoved);
  ctx.store.remove(MEMBERSHIPS, target.membership);
  sendMember(ctx, target);
}

export const membersRoutes: readonly Route[] = [
  { pattern: /^\/members$/, methods: { GET: listMembers, POST: addMember } },
  { pattern: /^\/members\/([^/]+)$/, methods: { GET: (ctx) => sendMember(ctx, findMember(ctx)), PUT: changeRole, DELETE: removeMember } },
];
