import { memberRecord } from "../../api/members";
import { declareResource } from "../shared/declaration";
import { memberExport } from "./export";
import { tableOperations } from "./fields";
import { memberImplementation } from "./implementation";
import type { RecoverDeclaration } from "../shared/recovery";
import { addedMember } from "./implementation";

/** Recovering members: the account holds a person once, by email. */
const memberRecover: RecoverDeclaration = { by: "its email", find: addedMember.find };

export const memberDeclaration = declareResource({
  kind: "Member",
  description: "A person's membership of the account, with a role. A replacement removes the old membership first: the account holds an email once.",
  notes: [
    "Who may use the account, reviewed in pull requests. An address no user has is invited (the service makes an unconfirmed user; `confirmed` is false until the person signs up); destroying a member removes the membership only, and the person loses the account's API at once.",
    "",
    'Ownership is not managed: it is a one-off act that can lock people out, so `role: "owner"` fails at preview, the owner\'s role is left as it is when the owner is adopted, and destroying a member who is the owner fails before any call, saying how to hand ownership over or to drop the resource with `pulumi state delete`.',
    "",
    "Someone who is a member already is not taken over unasked: the create fails and names the `importId` to set. A membership removed out of band is seen by `refresh` (or `pulumi up --refresh`), and the next `up` adds the person again. A replacement (a new email, or `pulumi up --replace`) removes the old membership before adding the new one, since the account holds an email once (`deleteBeforeReplace` defaults to true for this resource on the dynamic resources; set it yourself on the plugin, where a replacement without it fails saying so and changes nothing). [examples/team-access](../../../examples/team-access) keeps a team in stack configuration.",
  ],
  implementation: memberImplementation,
  recover: memberRecover,
  export: memberExport,
  tableOperations,
  record: memberRecord,
  secrets: [],
  deleteBeforeReplace: true,
  example: { email: "ana@example.com", role: "admin" },
});

export type { MemberArgs, MemberOutputs } from "./fields";
