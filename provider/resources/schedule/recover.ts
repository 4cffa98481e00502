/** Recovering schedules: by name, made in the deployment's window with the task asked for. */
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedSchedule } from "./provider";

export const scheduleRecover: RecoverDeclaration = { by: "its name", find: findCreatedSchedule };
