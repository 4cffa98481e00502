import { resourceClass } from "../shared/resource-class";
import { memberResource } from "./declaration";
import type { MemberArgs, MemberOutputs } from "./fields";

export type { MemberArgs, MemberOutputs } from "./fields";

/** A person's membership of the account, with a role: who may use it, as code. */
export const Member = resourceClass<MemberArgs, MemberOutputs>(memberResource);
export type Member = InstanceType<typeof Member>;
