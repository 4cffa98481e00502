import { z } from "zod";
import { EMAIL_ADDRESS, HOOK_URL_RULE, isHookUrl } from "../../../contract/hook-settings";
import { HOOK_SECRET_SETTINGS, type HookType } from "../../../contract/vocabularies";
import { boolean, label } from "../../fields";

/**
 * Each hook type's `settings` (facts, "Settings per type"), read by one strict schema per type so
 * an unknown setting is refused like any unknown field. Secret settings are accepted and kept
 * apart from the others (`HOOK_SECRET_SETTINGS`), because no response may show them.
 */

export type Settings = Record<string, unknown>;

const httpUrl = () => z.string().refine(isHookUrl, HOOK_URL_RULE);
const secret = () => z.string().refine((text) => text.trim() !== "", "must not be blank");
const optionalLabel = () => label().nullish();

/** `user:password` in base64, as HTTP basic authentication sends it. */
function isBasicAuthData(text: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return false;
  return Buffer.from(text, "base64").toString("utf8").indexOf(":") > 0;
}

/** One comma-separated string of addresses (facts), each of them valid. */
function isEmailList(text: string): boolean {
  const addresses = emailAddresses(text);
  return addresses.length > 0 && addresses.every((address) => EMAIL_ADDRESS.test(address));
}

export function emailAddresses(text: string): string[] {
  return text
    .split(",")
    .map((address) => address.trim())
    .filter((address) => address !== "");
}

const webSettings = z
  .strictObject({
    url: httpUrl(),
    basic_auth: boolean().optional(),
    basic_auth_data: z.string().refine(isBasicAuthData, "must be the base64 of user:password").optional(),
    // The facts' wording is ambiguous; the name's meaning is taken: true = the certificate is not verified.
    insecure_ssl: boolean().optional(),
  })
  .superRefine((settings, ctx) => {
    if (settings.basic_auth === true && settings.basic_auth_data === undefined) {
      ctx.addIssue({ code: "custom", path: ["basic_auth_data"], message: "is required when basic_auth is true" });
    }
  });

export const SETTINGS_SCHEMAS = {
  web: webSettings,
  slack: z.strictObject({ url: httpUrl(), team: optionalLabel(), channel: optionalLabel(), username: optionalLabel() }),
  email: z.strictObject({ emails: z.string().refine(isEmailList, "must be a comma-separated list of email addresses") }),
  hipchat: z.strictObject({ room: label(), auth_token: secret() }),
  pagerduty: z.strictObject({ pd_account: label(), service_name: label(), service_key: secret() }),
} as const satisfies Record<HookType, z.ZodType<Settings>>;

/** What a response shows of a setting left out: every non-secret setting is always present. */
const SHOWN_DEFAULTS: Record<HookType, Settings> = {
  web: { basic_auth: false, insecure_ssl: false },
  slack: { team: null, channel: null, username: null },
  email: {},
  hipchat: {},
  pagerduty: {},
};

function isSecret(type: HookType, name: string): boolean {
  return (HOOK_SECRET_SETTINGS[type] as readonly string[]).includes(name);
}

/** Valid settings split into what responses show and what only deliveries use. */
export function splitSettings(type: HookType, settings: Settings): { shown: Settings; secrets: Record<string, string> } {
  const shown: Settings = { ...SHOWN_DEFAULTS[type] };
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(settings)) {
    if (isSecret(type, name)) secrets[name] = value as string;
    else if (value !== undefined) shown[name] = value ?? null;
  }
  return { shown, secrets };
}

/**
 * The settings of an update: those sent replace the others, except secret ones left out, which
 * are kept, since a client can never read them back to send them again.
 */
export function withKeptSecrets(type: HookType, sent: Settings, secrets: Record<string, string>): Settings {
  const kept = Object.entries(secrets).filter(([name]) => isSecret(type, name) && sent[name] === undefined);
  return { ...sent, ...Object.fromEntries(kept) };
}

/** The secret-free host of an address, for names: a slack address carries its token. */
function hostOf(url: unknown): string {
  try {
    return new URL(String(url)).host;
  } catch {
    return "slack";
  }
}

/**
 * The name of a hook created without one (facts): a web hook's url, a slack hook's team and
 * channel, the email addresses, the hipchat room, the pagerduty service. A slack hook with neither
 * team nor channel is named by its address's host, not the address itself, which is secret.
 */
export function defaultHookName(type: HookType, settings: Settings): string {
  switch (type) {
    case "web":
      return String(settings.url);
    case "slack":
      return [settings.team, settings.channel].filter((part) => typeof part === "string").join(" ") || hostOf(settings.url);
    case "email":
      return String(settings.emails);
    case "hipchat":
      return String(settings.room);
    case "pagerduty":
      return String(settings.service_name);
  }
}
