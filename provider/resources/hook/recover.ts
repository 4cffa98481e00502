/** Recovering hooks: by name and type, made in the deployment's window. */
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedHook } from "./provider";

export const hookRecover: RecoverDeclaration = { by: "its name", find: findCreatedHook };
