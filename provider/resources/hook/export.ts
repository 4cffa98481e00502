/**
 * Exporting hooks: the service shows every setting but the secret ones (a basic-auth pair, a
 * Slack address, a HipChat token, a PagerDuty key), which the program reads from the stack's
 * configuration. The rest is written as the program gives it (settings.ts).
 */
import { hookRecord, type HookRecord } from "../../api/hooks";
import type { ExportContext, ExportDeclaration } from "../shared/exported";

type Shown = Record<string, unknown>;

/** Settings the program would give for what the service shows; `null` and `false` are its "not set". */
function given(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null && value !== undefined && value !== false));
}

const SETTINGS_OF: Record<string, (shown: Shown, context: ExportContext) => Record<string, unknown>> = {
  web: (shown, context) =>
    given({
      url: shown.url,
      basicAuth: shown.basic_auth === true ? { username: context.secret("basicAuthUsername"), password: context.secret("basicAuthPassword") } : undefined,
      insecureSsl: shown.insecure_ssl === true ? true : undefined,
    }),
  slack: (shown, context) => given({ url: context.secret("slackUrl"), team: shown.team, channel: shown.channel, username: shown.username }),
  email: (shown) => ({
    emails: String(shown.emails ?? "")
      .split(",")
      .map((address) => address.trim())
      .filter((address) => address !== ""),
  }),
  hipchat: (shown, context) => ({ room: shown.room, authToken: context.secret("authToken") }),
  pagerduty: (shown, context) => ({ pdAccount: shown.pd_account, serviceName: shown.service_name, serviceKey: context.secret("serviceKey") }),
};

export const hookExport: ExportDeclaration<HookRecord> = {
  listing: { method: "GET", path: "/hooks", query: { direction: "asc", limit: 100 } },
  item: hookRecord,
  name: (hook) => hook.name,
  unrepresentable: (hook) => (SETTINGS_OF[hook.type] === undefined ? `its type ${hook.type} is not one the provider knows` : undefined),
  inputs: (inputs, hook, context) => ({ ...inputs, settings: SETTINGS_OF[hook.type]!(hook.settings, context) }),
};
