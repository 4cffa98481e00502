/** Recovering public keys: the user holds a key once, so its fingerprint names it. */
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedKey } from "./provider";

export const publicKeyRecover: RecoverDeclaration = { by: "its fingerprint", find: findCreatedKey };
