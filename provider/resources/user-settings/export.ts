/** Exporting the user's settings: the one object `GET {host}/user` is, as the account's user has them. */
import { userRequest, userSettingsRecord, type UserSettingsRecord } from "../../api/users";
import type { ExportDeclaration } from "../shared/exported";

export const userSettingsExport: ExportDeclaration<UserSettingsRecord> = {
  listing: userRequest,
  item: userSettingsRecord,
  single: true,
  name: () => "me",
};
