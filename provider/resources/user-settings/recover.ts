/** Recovering user settings: the one user the API key names; nothing is ever made. */
import type { RecoverDeclaration } from "../shared/recovery";
import { findUserSettings } from "./provider";

export const userSettingsRecover: RecoverDeclaration = { by: "its API key's user", find: findUserSettings };
