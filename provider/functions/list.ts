/**
 * The one list of functions: what the plugin serves through `Invoke` and declares in its schema.
 * Each names its arguments' types (the functions check the values themselves) and whether it
 * returns a list; a list comes back to other languages as `{ items }`, since a function's result
 * is an object there.
 */
import { z } from "zod";
import { connectionGroupRecord } from "../api/connection-groups";
import { connectionSettingsRecord, connectionTypeRecord } from "../api/connections";
import { deliveryRecord } from "../api/deliveries";
import { hookEventRecord, hookTypeRecord } from "../api/hooks";
import { invoiceRecord } from "../api/invoices";
import { memberRecord } from "../api/members";
import { notificationsMarkedRecord } from "../api/notifications";
import { packageRecord, packageTemplateRecord, packageValidationRecord } from "../api/packages";
import { publicKeyRecord } from "../api/public-keys";
import { scheduleRecord } from "../api/schedules";
import { accountRecord, namedRecord, regionRecord, userRecord } from "../api/system";
import type { ProgramFunction } from "./context";
import * as functions from "./index";

export type ArgumentType = "string" | "integer" | "boolean" | "integerOrString";

export interface FunctionDeclaration {
  description: string;
  /** Run with the stack's configuration in a program, or `withContext` a provider's. */
  run: ProgramFunction<[args: never], unknown>;
  /** Each argument; a required one has the value its reference page's example passes. */
  args?: Record<string, { type: ArgumentType; required?: boolean; description?: string; example?: unknown }>;
  returnsList?: boolean;
  /**
   * The service's record the function returns (each item's, for a list), whose fields come back
   * in camelCase: the result's type in the schema and the SDKs. Without it, any object.
   */
  result?: z.ZodObject;
}

const id = (description: string, example: number) => ({ type: "integerOrString" as const, required: true, description, example });
const text = (description: string, example: string) => ({ type: "string" as const, required: true, description, example });
const optionalText = (description: string) => ({ type: "string" as const, description });

export const FUNCTIONS = {
  getPackage: {
    description: "A package (a data flow) by its id.",
    run: functions.getPackage,
    args: { packageId: id("The package's id.", 101) },
    result: packageRecord,
  },
  getPackageExport: {
    description:
      "A package's export document, in the service's own field names: kept in the repository, it is a `Package`'s `dataFlow` in this account or another.",
    run: functions.getPackageExport,
    args: { packageId: id("The package's id.", 101) },
  },
  searchPackages: {
    description: "Packages matching a query.",
    run: functions.searchPackages,
    args: { q: text("The query.", "name:orders") },
    returnsList: true,
    result: packageRecord,
  },
  getPackageTemplates: {
    description: "The templates a package can start from.",
    run: functions.getPackageTemplates,
    returnsList: true,
    result: packageTemplateRecord,
  },
  validatePackage: {
    description: "Validates an existing package now: `completed`, or `failed` with each broken rule (a check before a merge).",
    run: functions.validatePackage,
    args: { packageId: id("The package's id.", 101) },
    result: packageValidationRecord,
  },
  getPublicKey: {
    description: "An SSH public key of the API user by its id.",
    run: functions.getPublicKey,
    args: { keyId: id("The key's id.", 12) },
    result: publicKeyRecord,
  },
  getInvoice: {
    description: "An invoice of the account by its id.",
    run: functions.getInvoice,
    args: { invoiceId: text("The invoice's id.", "inv-1001") },
    result: invoiceRecord,
  },
  searchConnectionGroups: {
    description: "Connection groups whose name matches a text.",
    run: functions.searchConnectionGroups,
    args: { q: text("The text to look for.", "warehouse"), offset: { type: "integer" }, limit: { type: "integer" } },
    returnsList: true,
    result: connectionGroupRecord,
  },
  listWebAnalyticsAccounts: {
    description: "The analytics accounts a web analytics connection reaches.",
    run: functions.listWebAnalyticsAccounts,
    args: { connectionId: id("The connection's id.", 306) },
    returnsList: true,
  },
  listAdsPlatformCustomers: {
    description: "The customers an ads platform connection reaches.",
    run: functions.listAdsPlatformCustomers,
    args: { connectionId: id("The connection's id.", 306) },
    returnsList: true,
  },
  listCrmObjects: {
    description: "The objects a CRM connection reaches.",
    run: functions.listCrmObjects,
    args: { connectionId: id("The connection's id.", 306) },
    returnsList: true,
  },
  getConnectionTypes: {
    description: "The connection types the service offers.",
    run: functions.getConnectionTypes,
    returnsList: true,
    result: connectionTypeRecord,
  },
  getConnection: {
    description: "A connection by its type and id; secrets are never returned.",
    run: functions.getConnection,
    args: { type: text("The connection's type.", "postgres"), id: id("The connection's id.", 301) },
    result: connectionSettingsRecord,
  },
  listConnections: {
    description: "The account's connections, of one type or all.",
    run: functions.listConnections,
    args: { type: optionalText("Only connections of this type.") },
    returnsList: true,
    result: connectionSettingsRecord,
  },
  listProductUpdates: { description: "The service's product updates.", run: functions.listProductUpdates, returnsList: true },
  markNotificationsRead: {
    description: "Marks one notification, or all, as read.",
    run: functions.markNotificationsRead,
    args: { id: { type: "integerOrString", description: "The one notification to mark." } },
    result: notificationsMarkedRecord,
  },
  getSchedule: { description: "A schedule by its id.", run: functions.getSchedule, args: { scheduleId: id("The schedule's id.", 42) }, result: scheduleRecord },
  searchSchedules: {
    description: "Schedules matching a query.",
    run: functions.searchSchedules,
    args: { q: text("The query.", "name:nightly") },
    returnsList: true,
    result: scheduleRecord,
  },
  getDelivery: {
    description: "A delivery by its id, with its status and, when disabled, why.",
    run: functions.getDelivery,
    args: { deliveryId: id("The delivery's id.", 12) },
    result: deliveryRecord,
  },
  getHookTypes: { description: "The kinds of hook the service offers.", run: functions.getHookTypes, returnsList: true, result: hookTypeRecord },
  getHookEvents: { description: "The events a hook can be told of.", run: functions.getHookEvents, returnsList: true, result: hookEventRecord },
  pingHook: { description: "Sends a test delivery of a hook.", run: functions.pingHook, args: { hookId: id("The hook's id.", 7) } },
  getMember: {
    description: "A member of the account by email.",
    run: functions.getMember,
    args: { email: text("The member's email address.", "ana@example.com") },
    result: memberRecord,
  },
  getRegions: {
    description: "The regions the service offers, of one connection type, or the account's cluster regions.",
    run: functions.getRegions,
    args: {
      type: optionalText("Only the regions of this connection type."),
      account: { type: "boolean", description: "The account's cluster regions instead." },
    },
    returnsList: true,
    result: regionRecord,
  },
  getStacks: { description: "The software stacks clusters can run.", run: functions.getStacks, returnsList: true, result: namedRecord },
  getTimeZones: { description: "The time zones schedules can use.", run: functions.getTimeZones, returnsList: true, result: namedRecord },
  getSystemVariables: { description: "The service's system variables and their defaults.", run: functions.getSystemVariables },
  getCurrentUser: { description: "The user the API key belongs to (never the key).", run: functions.getCurrentUser, result: userRecord },
  getAccount: { description: "The configured account.", run: functions.getAccount, result: accountRecord },
  getRateLimitStatus: {
    description: "The calls allowed per hour and those left.",
    run: functions.getRateLimitStatus,
    result: z.object({ limit: z.number().int(), remaining: z.number().int() }),
  },
} satisfies Record<string, FunctionDeclaration>;

export type FunctionName = keyof typeof FUNCTIONS;
