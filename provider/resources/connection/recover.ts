/** Recovering connections: by name and type, made in the deployment's window. */
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedConnection } from "./provider";

export const connectionRecover: RecoverDeclaration = { by: "its name", find: findCreatedConnection };
