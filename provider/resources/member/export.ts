/** Exporting members: every role, named by address; ownership is not managed, so the owner is left out. */
import { memberRecord, type MemberRecord } from "../../api/members";
import type { ExportDeclaration } from "../shared/exported";

export const memberExport: ExportDeclaration<MemberRecord> = {
  listing: { method: "GET", path: "/members", query: { role: "all", direction: "asc", limit: 100 } },
  item: memberRecord,
  name: (member) => member.email.split("@")[0]!,
  unrepresentable: (member) => (member.owner ? "the account's owner: ownership is handed over in the service, not managed by Pulumi" : undefined),
  // The name is used only when inviting someone new; the person has a user already.
  inputs: ({ name: _unused, ...inputs }) => inputs,
};
