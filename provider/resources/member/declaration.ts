import { memberRecord } from "../../api/members";
import { declareResource } from "../shared/declaration";
import { memberExport } from "./export";
import { fields } from "./fields";
import { memberProvider } from "./provider";
import type { RecoverDeclaration } from "../shared/recovery";
import { findAddedMember } from "./provider";
import { resourceClass } from "../shared/resource-class";
import type { MemberArgs, MemberOutputs } from "./fields";

/** Recovering members: the account holds a person once, by email. */
const memberRecover: RecoverDeclaration = { by: "its email", find: findAddedMember };

export const memberResource = declareResource({
  kind: "Member",
  description: "A person's membership of the account, with a role. A replacement removes the old membership first: the account holds an email once.",
  provider: memberProvider,
  recover: memberRecover,
  export: memberExport,
  fields,
  record: memberRecord,
  secrets: [],
  deleteBeforeReplace: true,
  example: { email: "ana@example.com", role: "admin" },
});

export type { MemberArgs, MemberOutputs } from "./fields";

/** A person's membership of the account, with a role: who may use it, as code. */
export const Member = resourceClass<MemberArgs, MemberOutputs>(memberResource);
export type Member = InstanceType<typeof Member>;
