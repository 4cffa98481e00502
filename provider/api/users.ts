/** The authenticated user's own settings (facts, "Users"): `{host}/user`, read and changed, never made or deleted. */
import { z } from "zod";
import type { ApiRequest, RequestFn } from "../client/http";
import { parseRecord } from "./records";

const text = z.string().nullable().optional();

export const userSettingsRecord = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string(),
  location: text,
  time_zone: z.string(),
  time_zone_info: z.object({ name: z.string(), identifier: z.string(), offset: z.string() }).nullable().optional(),
  notification_settings: z.object({ email: z.boolean(), web: z.boolean() }),
  receive_newsletter: z.boolean(),
  confirmed: z.boolean().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type UserSettingsRecord = z.output<typeof userSettingsRecord>;

const WHAT = "the user's settings";

export const userRequest: ApiRequest = { method: "GET", path: "/user", atHostRoot: true };

export async function getUserSettings(request: RequestFn): Promise<UserSettingsRecord> {
  const response = await request(userRequest);
  return parseRecord(userSettingsRecord, response.body, WHAT);
}

export async function updateUserSettings(request: RequestFn, body: object): Promise<UserSettingsRecord> {
  const response = await request({ method: "PUT", path: "/user", atHostRoot: true, body });
  return parseRecord(userSettingsRecord, response.body, WHAT);
}
