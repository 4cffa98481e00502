/** Recovering connection groups: the account holds a name once. */
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedGroup } from "./provider";

export const connectionGroupRecover: RecoverDeclaration = { by: "its name", find: findCreatedGroup };
