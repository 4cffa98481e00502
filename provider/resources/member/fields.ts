/**
 * Member's fields. `email` names the person (a new one replaces the member); `role` updates in
 * place; `name` is used only when the person is invited and is never compared. Ownership is not
 * managed: `owner` is refused as a role, and the owner's role is left alone.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { MemberRecord } from "../../api/members";
import { MANAGED_MEMBER_ROLES, type ManagedMemberRole } from "../../../contract/vocabularies";
import { describeGiven, ID_TEXT, labelText } from "../shared/check";
import { fieldOperations, takes, output, OUTPUT, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";

const email = z
  .string()
  .trim()
  .pipe(z.email({ message: 'must be an email address such as "dana@example.com"' }))
  .transform((address) => address.toLowerCase());

const role = z.string().superRefine((value, ctx) => {
  if ((MANAGED_MEMBER_ROLES as readonly string[]).includes(value)) return;
  const why = value === "owner" ? ": ownership is handed over in the service by the owner, and is not managed by Pulumi" : `, got ${describeGiven(value)}`;
  ctx.addIssue({ code: "custom", message: `must be one of ${MANAGED_MEMBER_ROLES.join(", ")}${why}` });
});

/** A member's id, or the email address that names them. */
const memberImportId = z.unknown().transform((value, ctx) => {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : undefined;
  if (text !== undefined && ID_TEXT.test(text)) return text;
  if (text !== undefined && z.email().safeParse(text).success) return text.toLowerCase();
  ctx.addIssue({ code: "custom", message: `must be an existing member's id (such as "42") or email address, got ${describeGiven(value)}` });
  return z.NEVER;
});

const table = {
  /** The person's email address; a person with no user yet is invited. Changing it replaces the member. */
  email: { input: email, required: true, api: "email", onChange: "replace", read: (r) => r.email.toLowerCase() },
  /** `member` (the default) or `admin`. Ownership is handed over in the service, not here. */
  role: {
    program: takes<pulumi.Input<ManagedMemberRole>>(),
    input: role,
    default: "member",
    sendDefault: true,
    api: "role",
    onChange: "update",
    read: (r) => (r.owner ? "owner" : r.role),
  },
  // An invited person who gave no name has an empty one: no name, which no input could be.
  /** The name an invited person's new user gets; not used for someone who already has a user. */
  name: { input: labelText(), api: "name", read: (r) => r.name || undefined },
  /** An existing member to manage instead of adding one: their id, or their email address. */
  importId: { program: takes<pulumi.Input<string | number>>(), input: memberImportId },
  userId: { description: "The user's id (the resource's id too).", read: (r) => r.id },
  displayName: { description: "The user's display name.", read: (r) => r.display_name ?? undefined },
  confirmed: output("Whether the person accepted the invitation."),
  confirmedAt: { description: "When the person accepted the invitation.", read: (r) => r.confirmed_at ?? undefined },
  owner: output("Whether the member owns the account (never changed from here)."),
  avatarUrl: { description: "The user's picture.", read: (r) => r.avatar_url ?? undefined },
  location: { description: "Where the user says they are.", read: (r) => r.location ?? undefined },
  createdAt: OUTPUT,
  updatedAt: OUTPUT,
} satisfies Record<string, Field<MemberRecord>>;

/** What a program passes. */
export type MemberArgs = ArgsOf<typeof table>;

export const tableOperations = fieldOperations<MemberRecord, typeof table>(table);

export type MemberInputs = InputsOf<typeof table>;
export type MemberOutputs = OutputsOf<typeof table, MemberRecord>;
