import { HOOK_EVENTS, type HookType } from "../../../contract/vocabularies";
import { sendJson } from "../../http";
import type { ApiContext, Route } from "../../routing";

/**
 * The two catalogues (facts, "Hooks"): hook types (`GET {base_url}/hooks/types`) and hook events
 * (`GET {host}/hook_events`, at the host root). Names, descriptions, groups and icons are the
 * emulator's wording: the facts show only the fields and two groups.
 */

interface HookTypeEntry {
  name: string;
  description: string;
  group: { group_type: string; group_name: string };
}

const CHAT = { group_type: "chat", group_name: "Chat" };

const HOOK_TYPE_ENTRIES: Record<HookType, HookTypeEntry> = {
  web: { name: "Web hook", description: "Posts a signed JSON notification to a URL.", group: { group_type: "web", group_name: "Web" } },
  slack: { name: "Slack", description: "Posts a message to a Slack channel through an incoming webhook.", group: CHAT },
  email: { name: "Email", description: "Sends an email to a list of addresses.", group: { group_type: "email", group_name: "Email" } },
  hipchat: { name: "HipChat", description: "Posts a message to a HipChat room.", group: CHAT },
  pagerduty: { name: "PagerDuty", description: "Triggers an incident on a PagerDuty service.", group: { group_type: "alerting", group_name: "Alerting" } },
};

function listHookTypes(ctx: ApiContext): void {
  const types = Object.entries(HOOK_TYPE_ENTRIES).map(([type, entry]) => ({
    type,
    name: entry.name,
    description: entry.description,
    icon_url: `${ctx.origin}/images/hooks/${type}.png`,
    groups: [entry.group],
  }));
  sendJson(ctx.res, 200, types);
}

function listHookEvents(ctx: ApiContext): void {
  sendJson(ctx.res, 200, HOOK_EVENTS);
}

/** Below `{base_url}`; placed before `/hooks/{id}` so `types` is not read as an id. */
export const hookTypesRoute: Route = { pattern: /^\/hooks\/types$/, methods: { GET: listHookTypes } };

/** At the host root, as the service's own client builds it. */
export const hookEventsRoute: Route = { pattern: /^\/hook_events$/, methods: { GET: listHookEvents } };
