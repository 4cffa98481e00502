/** Recovering accounts: one made since the create was sent, owned by the caller, with the name and region asked for. */
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedAccount } from "./provider";

export const accountRecover: RecoverDeclaration = { by: "its name and region", find: findCreatedAccount };
