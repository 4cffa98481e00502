import { userSettingsRecord } from "../../api/users";
import { declareResource } from "../shared/declaration";
import { userSettingsExport } from "./export";
import { fields } from "./fields";
import { userSettingsProvider } from "./provider";
import { userSettingsRecover } from "./recover";

export const userSettingsResource = declareResource({
  kind: "UserSettings",
  description:
    "The settings of the user the API key belongs to: name, time zone, how they hear of watched objects, the newsletter. The service holds one per user and never makes or deletes it: creating the resource takes the settings over, and destroying it leaves them as they are.",
  provider: userSettingsProvider,
  recover: userSettingsRecover,
  export: userSettingsExport,
  fields,
  record: userSettingsRecord,
  secrets: [],
  singleton: true,
  example: { timeZone: "UTC", notificationSettings: { email: true, web: false }, receiveNewsletter: false },
});
