/** Members of the account: `{base_url}/members` (facts, "Members"). A member's id is its user's id. */
import { z } from "zod";
import type { RequestFn } from "../client/http";
import { collection } from "./collection";
import { parseRecord } from "./records";

const text = z.string().nullable().optional();

export const memberRecord = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  display_name: text,
  email: z.string(),
  gravatar_email: text,
  avatar_url: text,
  location: text,
  confirmed: z.boolean(),
  confirmed_at: text,
  role: z.string(),
  owner: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  url: text,
  html_url: text,
});
export type MemberRecord = z.output<typeof memberRecord>;

export const members = collection({ path: "/members", record: memberRecord, what: "a member" });

/**
 * `addMember` adds a user to the account, inviting the address when no user has it (200, not
 * 201); `removeMember` removes the membership only: the user stays, and may belong to other accounts.
 */
export const { create: addMember, get: getMember, update: updateMember, delete: removeMember } = members;

/** The member with this address, if any: the listing's `email` filter is exact. */
export async function findMemberByEmail(request: RequestFn, email: string): Promise<MemberRecord | undefined> {
  const response = await request({ method: "GET", path: "/members", query: { email, role: "all" } });
  const found = parseRecord(z.array(memberRecord), response.body, "a list of members");
  return found.find((member) => member.email.toLowerCase() === email.toLowerCase());
}
