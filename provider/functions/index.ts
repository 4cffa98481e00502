/**
 * Functions for programs: plain async functions that read records and listings of the service
 * with the stack's `etl:*` configuration (ETL_* environment variables outside a program), and
 * one that marks notifications read.
 */
export { ArgumentError } from "./arguments";
export {
  getPackage,
  getPackageExport,
  getPackageTemplates,
  searchPackages,
  validatePackage,
  type GetPackageArgs,
  type PackageInfo,
  type PackageTemplateInfo,
  type PackageValidationInfo,
  type SearchPackagesArgs,
} from "./packages";
export { getPublicKey, type GetPublicKeyArgs, type PublicKeyInfo } from "./public-keys";
export { getInvoice, type GetInvoiceArgs, type InvoiceInfo } from "./invoices";
export { searchConnectionGroups, type SearchConnectionGroupsArgs, type ConnectionGroupInfo } from "./connection-groups";
export {
  listWebAnalyticsAccounts,
  listAdsPlatformCustomers,
  listCrmObjects,
  getConnectionTypes,
  getConnection,
  listConnections,
  type ListConnectionItemsArgs,
  type ConnectionTypeInfo,
  type ConnectionInfo,
  type GetConnectionArgs,
  type ListConnectionsArgs,
  type ConnectionItem,
} from "./connections";
export { listProductUpdates, type ProductUpdate } from "./product-updates";
export { markNotificationsRead, type MarkNotificationsReadArgs, type NotificationsMarked } from "./notifications";
export { getSchedule, searchSchedules, type GetScheduleArgs, type SearchSchedulesArgs, type ScheduleInfo } from "./schedules";
export { getDelivery, type GetDeliveryArgs, type DeliveryInfo } from "./deliveries";
export { getHookEvents, getHookTypes, pingHook, type HookEventInfo, type HookTypeInfo, type PingHookArgs, type HookPing } from "./hooks";
export { getMember, type GetMemberArgs, type MemberInfo } from "./members";
export {
  getRegions,
  getStacks,
  getTimeZones,
  getSystemVariables,
  getCurrentUser,
  getAccount,
  getRateLimitStatus,
  type GetRegionsArgs,
  type RegionInfo,
  type StackInfo,
  type TimeZoneInfo,
  type CurrentUserInfo,
  type AccountInfo,
  type RateLimitStatus,
} from "./system";
