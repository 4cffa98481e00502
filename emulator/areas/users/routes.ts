import { z } from "zod";
import { isKnownTimeZone } from "../../../contract/catalogues";
import { invalid, parseBody, readObjectBody } from "../../body";
import { isoTime } from "../../clock";
import { boolean, label, nullableText } from "../../fields";
import { sendJson } from "../../http";
import type { ApiContext, Route } from "../../routing";
import { updateUser, userByEmail, type UserRecord, type UserSettings } from "./model";
import { DEFAULT_NOTIFICATION_SETTINGS, userJson } from "./json";

/**
 * The user the API key names (facts, "Users"), whichever account they reach: read and changed
 * at the host root. Passwords are taken and ignored: the emulator has none, and never shows one.
 */

const email = () => z.email({ error: "must be an email address" });

const changeSchema = z.strictObject({
  name: label().optional(),
  email: email().optional(),
  location: nullableText().optional(),
  gravatar_email: email().nullable().optional(),
  time_zone: z.string().refine(isKnownTimeZone, "must be a time zone id of GET /timezones, e.g. UTC").optional(),
  receive_newsletter: boolean().optional(),
  notification_settings: z.strictObject({ email: boolean().optional(), web: boolean().optional() }).optional(),
  current_password: z.string().optional(),
  new_password: z.string().optional(),
});

type UserChange = z.output<typeof changeSchema>;

/** The user's fields as the body sets them; notification channels left out keep their value. */
function changedFields(user: UserRecord, body: UserChange): Partial<UserRecord> {
  const settings: UserSettings = { ...user.settings };
  if (body.location !== undefined) settings.location = body.location;
  if (body.gravatar_email !== undefined) settings.gravatarEmail = body.gravatar_email;
  if (body.time_zone !== undefined) settings.timeZone = body.time_zone;
  if (body.receive_newsletter !== undefined) settings.receiveNewsletter = body.receive_newsletter;
  if (body.notification_settings !== undefined) {
    const channels = { ...DEFAULT_NOTIFICATION_SETTINGS, ...settings.notificationSettings };
    settings.notificationSettings = { ...channels, ...body.notification_settings };
  }
  return { name: body.name ?? user.name, email: body.email ?? user.email, settings };
}

/** An address names one user: members are invited, and found, by email. */
function checkEmailFree(ctx: ApiContext, wanted: string | undefined): void {
  const holder = wanted === undefined ? undefined : userByEmail(ctx.store, wanted);
  if (holder !== undefined && holder.id !== ctx.caller.user.id) throw invalid([`email ${wanted} is already another user's`]);
}

function getUser(ctx: ApiContext): void {
  sendJson(ctx.res, 200, userJson(ctx.store, ctx.caller.user, ctx.origin));
}

async function changeUser(ctx: ApiContext): Promise<void> {
  const { current_password: _, new_password: __, ...body } = parseBody(changeSchema, await readObjectBody(ctx.req));
  checkEmailFree(ctx, body.email);
  const user = ctx.caller.user;
  if (Object.keys(body).length > 0) {
    updateUser(ctx.store, user, { ...changedFields(user, body), updatedAt: isoTime(ctx.store.clock.now()) });
  }
  getUser(ctx);
}

export const userRoute: Route = { pattern: /^\/user$/, methods: { GET: getUser, PUT: changeUser } };
