import { resourceClass } from "../shared/resource-class";
import { userSettingsResource } from "./declaration";
import type { UserSettingsArgs, UserSettingsOutputs } from "./fields";

export type { UserSettingsNotificationSettingsArgs, UserSettingsArgs, UserSettingsOutputs } from "./fields";

/** The settings of the API key's user; see the reference page for UserSettings. */
export const UserSettings = resourceClass<UserSettingsArgs, UserSettingsOutputs>(userSettingsResource);
export type UserSettings = InstanceType<typeof UserSettings>;
