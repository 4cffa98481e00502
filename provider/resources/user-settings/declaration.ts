import { userSettingsRecord } from "../../api/users";
import { declareResource } from "../shared/declaration";
import { userSettingsExport } from "./export";
import { tableOperations } from "./fields";
import { userSettingsImplementation } from "./implementation";
import type { RecoverDeclaration } from "../shared/recovery";
import { findUserSettings } from "./implementation";

/** Recovering user settings: the one user the API key names; nothing is ever made. */
const userSettingsRecover: RecoverDeclaration = { by: "its API key's user", find: findUserSettings };

export const userSettingsDeclaration = declareResource({
  kind: "UserSettings",
  description:
    "The settings of the user the API key belongs to: name, time zone, how they hear of watched objects, the newsletter. The service holds one per user and never makes or deletes it: creating the resource takes the settings over, and destroying it leaves them as they are.",
  notes: [
    "`up` takes the settings over with one `PUT /user` of what differs; a setting left out is the user's own and never compared, and `destroy` sends nothing, leaving the settings as they are. Under another user's API key the resource stops rather than change (or show) that user's settings.",
    "",
    "A provider is one user, so it takes one `UserSettings`: a second under the same provider (on the dynamic resources, in the same program) fails the preview naming both, where the two would set the settings back to each other's at every `up`; two users' settings under two explicit providers are fine. `etl-export` writes the API key's user's settings as one `UserSettings`.",
  ],
  implementation: userSettingsImplementation,
  recover: userSettingsRecover,
  export: userSettingsExport,
  tableOperations,
  record: userSettingsRecord,
  secrets: [],
  singleton: true,
  example: { timeZone: "UTC", notificationSettings: { email: true, web: false }, receiveNewsletter: false },
});

export type { UserSettingsNotificationSettingsArgs, UserSettingsArgs, UserSettingsOutputs } from "./fields";
