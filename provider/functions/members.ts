/** A member of the account, looked up by email (facts, "Members"). */
import { z } from "zod";
import { findMemberByEmail, type MemberRecord } from "../api/members";
import { camelCased, type CamelCased } from "../api/records";
import { programFunction, type FunctionContext } from "./context";
import { UserFacingError } from "../errors";
import { parseArguments } from "./arguments";

export interface GetMemberArgs {
  email: string;
}

export type MemberInfo = CamelCased<MemberRecord>;

const memberArgs = z.strictObject({ email: z.email({ message: "must be an email address" }) });

/** The member with this email; fails, naming it, when no member of the account has it. */
export const getMember = programFunction(async function getMember(ctx: FunctionContext, args: GetMemberArgs): Promise<MemberInfo> {
  const { email } = parseArguments("getMember", memberArgs, args);
  const found = await findMemberByEmail(ctx.request, email);
  if (found === undefined) throw new UserFacingError(`getMember: no member of the account has the email ${email}`);
  return camelCased(found);
});
