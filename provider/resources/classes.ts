/**
 * The class programs instantiate for each kind, made from its declaration. Written by
 * `npm run docs` from the registry (provider/plugin/classes-module.ts): do not edit.
 */
import type { PublicKeyArgs, PublicKeyOutputs } from "./public-key/declaration";
import type { ConnectionGroupArgs, ConnectionGroupOutputs } from "./connection-group/declaration";
import type { ClusterArgs, ClusterOutputs } from "./cluster/declaration";
import type { JobRunArgs, JobRunOutputs } from "./job-run/declaration";
import type { ScheduleArgs, ScheduleOutputs } from "./schedule/declaration";
import type { HookArgs, HookOutputs } from "./hook/declaration";
import type { MemberArgs, MemberOutputs } from "./member/declaration";
import type { ConnectionArgs, ConnectionOutputs } from "./connection/declaration";
import type { PackageArgs, PackageOutputs } from "./package/declaration";
import type { DeliveryArgs, DeliveryOutputs } from "./delivery/declaration";
import type { AccountArgs, AccountOutputs } from "./account/declaration";
import type { UserSettingsArgs, UserSettingsOutputs } from "./user-settings/declaration";
import type { ClusterWatcherArgs, ClusterWatcherOutputs } from "./cluster-watcher/declaration";
import { RESOURCES } from "./registry";
import { resourceClass } from "./shared/resource-class";

/** An SSH public key of the API user, used to reach cluster machines. See the reference page for PublicKey. */
export const PublicKey = resourceClass<PublicKeyArgs, PublicKeyOutputs>(RESOURCES.PublicKey);
export type PublicKey = InstanceType<typeof PublicKey>;

/** A named set of the account's connections. See the reference page for ConnectionGroup. */
export const ConnectionGroup = resourceClass<ConnectionGroupArgs, ConnectionGroupOutputs>(RESOURCES.ConnectionGroup);
export type ConnectionGroup = InstanceType<typeof ConnectionGroup>;

/** Compute that jobs run on; `up` waits until it can run them. See the reference page for Cluster. */
export const Cluster = resourceClass<ClusterArgs, ClusterOutputs>(RESOURCES.Cluster);
export type Cluster = InstanceType<typeof Cluster>;

/** One run of a package on a cluster; `up` waits until it finishes. See the reference page for JobRun. */
export const JobRun = resourceClass<JobRunArgs, JobRunOutputs>(RESOURCES.JobRun);
export type JobRun = InstanceType<typeof JobRun>;

/** Runs a package on a cluster at set times. See the reference page for Schedule. */
export const Schedule = resourceClass<ScheduleArgs, ScheduleOutputs>(RESOURCES.Schedule);
export type Schedule = InstanceType<typeof Schedule>;

/** Tells a web address, Slack, email, HipChat or PagerDuty of job and cluster events. See the reference page for Hook. */
export const Hook = resourceClass<HookArgs, HookOutputs>(RESOURCES.Hook);
export type Hook = InstanceType<typeof Hook>;

/** A person's membership of the account, with a role. See the reference page for Member. */
export const Member = resourceClass<MemberArgs, MemberOutputs>(RESOURCES.Member);
export type Member = InstanceType<typeof Member>;

/** The settings by which the service reaches a database, warehouse, bucket or service. See the reference page for Connection. */
export const Connection = resourceClass<ConnectionArgs, ConnectionOutputs>(RESOURCES.Connection);
export type Connection = InstanceType<typeof Connection>;

/** A data flow the service runs. See the reference page for Package. */
export const Package = resourceClass<PackageArgs, PackageOutputs>(RESOURCES.Package);
export type Package = InstanceType<typeof Package>;

/** A source connection delivered into a destination connection every interval, through a pipeline the service sets up. See the reference page for Delivery. */
export const Delivery = resourceClass<DeliveryArgs, DeliveryOutputs>(RESOURCES.Delivery);
export type Delivery = InstanceType<typeof Delivery>;

/** An account of the service, with its own API path and objects: one per environment, reached through an explicit provider. See the reference page for Account. */
export const Account = resourceClass<AccountArgs, AccountOutputs>(RESOURCES.Account);
export type Account = InstanceType<typeof Account>;

/** The settings of the user the API key belongs to: name, time zone, how they hear of watched objects, the newsletter. See the reference page for UserSettings. */
export const UserSettings = resourceClass<UserSettingsArgs, UserSettingsOutputs>(RESOURCES.UserSettings);
export type UserSettings = InstanceType<typeof UserSettings>;

/** The API key's user watching a cluster: the service tells them, through their notifications, when it becomes available, terminates or fails. See the reference page for ClusterWatcher. */
export const ClusterWatcher = resourceClass<ClusterWatcherArgs, ClusterWatcherOutputs>(RESOURCES.ClusterWatcher);
export type ClusterWatcher = InstanceType<typeof ClusterWatcher>;
