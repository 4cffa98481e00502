/**
 * A hook's `settings`, typed per hook type (facts, "Settings per type"), in the program's
 * camelCase, and what the API takes. The service never returns the secret ones (a basic-auth
 * password, a Slack URL, a HipChat token, a PagerDuty key), so the resource keeps the settings as
 * last sent, encrypted in the state.
 */
import { z } from "zod";
import { EMAIL_ADDRESS, HOOK_URL_RULE, isHookUrl } from "../../../contract/hook-settings";
import { writtenWithHost } from "../../urls";
import type { HookType } from "../../../contract/vocabularies";
import type * as pulumi from "@pulumi/pulumi";
import { objectRule, takes, type ArgsOf } from "../shared/field-types";

/** The service's rule, and a host written out: `https:///x` would otherwise post to the host `x`. */
const httpUrl = z
  .string()
  .refine(isHookUrl, { message: HOOK_URL_RULE, abort: true })
  .refine(writtenWithHost, "must name a host after the scheme (https://host/path)");
const text = z.string().trim().min(1);

const basicAuthFields = {
  /** The user name the service sends; no colon. */
  username: {
    input: z
      .string()
      .min(1)
      .refine((u) => !u.includes(":"), "must not contain a colon"),
    required: true,
  },
  /** The password it sends. */
  password: { input: z.string().min(1), required: true },
} as const;

const webFields = {
  /** Where the service POSTs each notification, signed with the hook's `salt`. */
  url: { input: httpUrl, required: true },
  /** Basic authentication the service sends with each notification. */
  basicAuth: { program: takes<pulumi.Input<ArgsOf<typeof basicAuthFields>>>(), input: objectRule(basicAuthFields) },
  /** True: the receiver's TLS certificate is not verified. */
  insecureSsl: { input: z.boolean() },
} as const;

const slackFields = {
  /** The Slack incoming webhook's address. */
  url: { input: httpUrl, required: true },
  /** The Slack team. */
  team: { input: text },
  /** The channel posted to, e.g. `#etl`. */
  channel: { input: text },
  /** The name the posts are made under. */
  username: { input: text },
} as const;

const emailFields = {
  /** The addresses told, at least one. */
  emails: {
    program: takes<pulumi.Input<pulumi.Input<string>[]>>(),
    input: z.array(z.string().regex(EMAIL_ADDRESS, "must be an email address")).min(1),
    required: true,
  },
} as const;

const hipchatFields = {
  /** The HipChat room. */
  room: { input: text, required: true },
  /** The HipChat token. */
  authToken: { input: text, required: true },
} as const;

const pagerdutyFields = {
  /** The PagerDuty account. */
  pdAccount: { input: text, required: true },
  /** The PagerDuty service's name. */
  serviceName: { input: text, required: true },
  /** The PagerDuty service's integration key. */
  serviceKey: { input: text, required: true },
} as const;

/** A `web` hook's settings. */
export type WebHookSettingsArgs = ArgsOf<typeof webFields>;
/** A `slack` hook's settings. */
export type SlackHookSettingsArgs = ArgsOf<typeof slackFields>;
/** An `email` hook's settings. */
export type EmailHookSettingsArgs = ArgsOf<typeof emailFields>;
/** A `hipchat` hook's settings. */
export type HipchatHookSettingsArgs = ArgsOf<typeof hipchatFields>;
/** A `pagerduty` hook's settings. */
export type PagerdutyHookSettingsArgs = ArgsOf<typeof pagerdutyFields>;

/** A hook's settings, as its `type` takes them. */
export type HookSettingsArgs = WebHookSettingsArgs | SlackHookSettingsArgs | EmailHookSettingsArgs | HipchatHookSettingsArgs | PagerdutyHookSettingsArgs;

/** One strict schema per type: a setting of another type is refused like any unknown input. */
export const SETTINGS_BY_TYPE = {
  web: objectRule(webFields),
  slack: objectRule(slackFields),
  email: objectRule(emailFields),
  hipchat: objectRule(hipchatFields),
  pagerduty: objectRule(pagerdutyFields),
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
