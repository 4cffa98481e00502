/**
 * A hook's `settings`, typed per hook type (facts, "Settings per type"), in the program's
 * camelCase, and what the API takes. The service never returns the secret ones (a basic-auth
 * password, a Slack URL, a HipChat token, a PagerDuty key), so the resource keeps the settings as
 * last sent, encrypted in the state.
 */
import { z } from "zod";
import { EMAIL_ADDRESS, HOOK_URL_RULE, isHookUrl } from "../../../contract/hook-settings";
import type { HookType } from "../../../contract/vocabularies";
import type * as pulumi from "@pulumi/pulumi";

export interface WebHookSettingsArgs {
  /** Where the service POSTs each notification, signed with the hook's `salt`. */
  url: pulumi.Input<string>;
  basicAuth?: pulumi.Input<{ username: pulumi.Input<string>; password: pulumi.Input<string> }>;
  /** True: the receiver's TLS certificate is not verified. */
  insecureSsl?: pulumi.Input<boolean>;
}

export type HookSettingsArgs =
  | WebHookSettingsArgs
  | { url: pulumi.Input<string>; team?: pulumi.Input<string>; channel?: pulumi.Input<string>; username?: pulumi.Input<string> }
  | { emails: pulumi.Input<pulumi.Input<string>[]> }
  | { room: pulumi.Input<string>; authToken: pulumi.Input<string> }
  | { pdAccount: pulumi.Input<string>; serviceName: pulumi.Input<string>; serviceKey: pulumi.Input<string> };

const httpUrl = z.string().refine(isHookUrl, HOOK_URL_RULE);
const text = z.string().trim().min(1);

/** One strict schema per type: a setting of another type is refused like any unknown input. */
export const SETTINGS_BY_TYPE = {
  web: z.strictObject({
    url: httpUrl,
    basicAuth: z
      .strictObject({
        username: z
          .string()
          .min(1)
          .refine((u) => !u.includes(":"), "must not contain a colon"),
        password: z.string().min(1),
      })
      .optional(),
    insecureSsl: z.boolean().optional(),
  }),
  slack: z.strictObject({ url: httpUrl, team: text.optional(), channel: text.optional(), username: text.optional() }),
  email: z.strictObject({ emails: z.array(z.string().regex(EMAIL_ADDRESS, "must be an email address")).min(1) }),
  hipchat: z.strictObject({ room: text, authToken: text }),
  pagerduty: z.strictObject({ pdAccount: text, serviceName: text, serviceKey: text }),
} as const satisfies Record<HookType, z.ZodType>;

const API_NAMES: Record<string, string> = {
  insecureSsl: "insecure_ssl",
  authToken: "auth_token",
  pdAccount: "pd_account",
  serviceName: "service_name",
  serviceKey: "service_key",
};

/** The settings as the API takes them: basic auth as `basic_auth_data`, addresses as one string. */
export function settingsBody(settings: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(settings)) {
    if (name === "basicAuth") {
      const { username, password } = value as { username: string; password: string };
      body.basic_auth = true;
      body.basic_auth_data = Buffer.from(`${username}:${password}`).toString("base64");
    } else if (name === "emails") {
      body.emails = (value as string[]).join(",");
    } else {
      body[API_NAMES[name] ?? name] = value;
    }
  }
  return body;
}
