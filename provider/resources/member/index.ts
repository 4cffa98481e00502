import { resourceClass } from "../shared/resource-class";
import type { MemberArgs, MemberOutputs } from "./fields";

export type { MemberArgs, MemberOutputs } from "./fields";

/** A person's membership of the account, with a role: who may use it, as code. */
export const Member = resourceClass<MemberArgs, MemberOutputs>("Member");
export type Member = InstanceType<typeof Member>;
