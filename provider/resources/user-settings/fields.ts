/**
 * UserSettings' fields: each updates in place with a PUT of what differs; a setting left out is
 * the user's own and not managed.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { UserSettingsRecord } from "../../api/users";
import { isKnownTimeZone } from "../../../contract/catalogues";
import { describeGiven, labelText } from "../shared/check";
import { fieldOperations, objectRule, takes, output, OUTPUT, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";

const notificationFields = {
  /** Notifications of watched objects by email. */
  email: { input: z.boolean(), required: true },
  /** Notifications of watched objects in the service's web console. */
  web: { input: z.boolean(), required: true },
} as const;

/** How the user hears of watched objects. */
export type UserSettingsNotificationSettingsArgs = ArgsOf<typeof notificationFields>;

const timeZone = z.string().superRefine((value, ctx) => {
  if (!isKnownTimeZone(value))
    ctx.addIssue({ code: "custom", message: `must be a time zone id such as "UTC" (see getTimeZones), got ${describeGiven(value)}` });
});

const notificationSettings = objectRule(notificationFields);

const table = {
  /** The user's name. */
  name: { input: labelText(), unmanagedWhenOmitted: true, api: "name", onChange: "update", read: (r) => r.name ?? undefined },
  /** The user's time zone, an id such as `UTC` or `Pacific Time (US & Canada)` (`getTimeZones`). */
  timeZone: { input: timeZone, unmanagedWhenOmitted: true, api: "time_zone", onChange: "update" },
  /** How the user hears of watched objects: `{ email, web }`, both given. */
  notificationSettings: {
    program: takes<pulumi.Input<UserSettingsNotificationSettingsArgs>>(),
    input: notificationSettings,
    unmanagedWhenOmitted: true,
    api: "notification_settings",
    onChange: "update",
  },
  /** Whether the user receives the service's newsletter. */
  receiveNewsletter: { input: z.boolean(), unmanagedWhenOmitted: true, api: "receive_newsletter", onChange: "update" },
  /** Where the user says they are. */
  location: { input: labelText(), unmanagedWhenOmitted: true, api: "location", onChange: "update", read: (r) => r.location ?? undefined },
  userId: { description: "The user's id (the resource's id too).", read: (r) => r.id },
  email: output("The user's email address (changed in the service, not here)."),
  timeZoneInfo: { description: "The time zone's name, IANA identifier and offset.", read: (r) => r.time_zone_info ?? undefined },
  createdAt: OUTPUT,
  updatedAt: OUTPUT,
} satisfies Record<string, Field<UserSettingsRecord>>;

/** What a program passes. */
export type UserSettingsArgs = ArgsOf<typeof table>;

export const tableOperations = fieldOperations<UserSettingsRecord, typeof table>(table);

export type UserSettingsInputs = InputsOf<typeof table>;
export type UserSettingsOutputs = OutputsOf<typeof table, UserSettingsRecord>;
