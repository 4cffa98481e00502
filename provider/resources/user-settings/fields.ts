/**
 * UserSettings' fields: each updates in place with a PUT of what differs; a setting left out is
 * the user's own and not managed.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { UserSettingsRecord } from "../../api/users";
import { isKnownTimeZone } from "../../../contract/catalogues";
import { describeGiven, labelText } from "../shared/check";
import { fieldsOf, output, OUTPUT, type ArgsMatchTable, type Field, type InputsOf, type OutputsOf } from "../shared/fields";

export interface UserSettingsNotificationSettingsArgs {
  /** Notifications of watched objects by email. */
  email: pulumi.Input<boolean>;
  /** Notifications of watched objects in the service's web console. */
  web: pulumi.Input<boolean>;
}

export interface UserSettingsArgs {
  /** The user's name. */
  name?: pulumi.Input<string>;
  /** The user's time zone, an id such as `UTC` or `Pacific Time (US & Canada)` (`getTimeZones`). */
  timeZone?: pulumi.Input<string>;
  /** How the user hears of watched objects: `{ email, web }`, both given. */
  notificationSettings?: pulumi.Input<UserSettingsNotificationSettingsArgs>;
  /** Whether the user receives the service's newsletter. */
  receiveNewsletter?: pulumi.Input<boolean>;
  /** Where the user says they are. */
  location?: pulumi.Input<string>;
}

const timeZone = z.string().superRefine((value, ctx) => {
  if (!isKnownTimeZone(value))
    ctx.addIssue({ code: "custom", message: `must be a time zone id such as "UTC" (see getTimeZones), got ${describeGiven(value)}` });
});

const notificationSettings = z.strictObject({ email: z.boolean(), web: z.boolean() });

const table = {
  name: { input: labelText(), unmanagedWhenOmitted: true, api: "name", onChange: "update", read: (r) => r.name ?? undefined },
  timeZone: { input: timeZone, unmanagedWhenOmitted: true, api: "time_zone", onChange: "update" },
  notificationSettings: { input: notificationSettings, unmanagedWhenOmitted: true, api: "notification_settings", onChange: "update" },
  receiveNewsletter: { input: z.boolean(), unmanagedWhenOmitted: true, api: "receive_newsletter", onChange: "update" },
  location: { input: labelText(), unmanagedWhenOmitted: true, api: "location", onChange: "update", read: (r) => r.location ?? undefined },
  userId: { description: "The user's id (the resource's id too).", read: (r) => r.id },
  email: output("The user's email address (changed in the service, not here)."),
  timeZoneInfo: { description: "The time zone's name, IANA identifier and offset.", read: (r) => r.time_zone_info ?? undefined },
  createdAt: OUTPUT,
  updatedAt: OUTPUT,
} satisfies Record<string, Field<UserSettingsRecord>>;

// A program's arguments and the table name the same inputs.
true satisfies ArgsMatchTable<UserSettingsArgs, typeof table>;

export const fields = fieldsOf<UserSettingsRecord, typeof table>(table);

export type UserSettingsInputs = InputsOf<typeof table>;
export type UserSettingsOutputs = OutputsOf<typeof table, UserSettingsRecord>;
