/** Recovering members: the account holds a person once, by email. */
import type { RecoverDeclaration } from "../shared/recovery";
import { findAddedMember } from "./provider";

export const memberRecover: RecoverDeclaration = { by: "its email", find: findAddedMember };
