import { CONNECTION_TYPE_RULES, connectionTypeGroups } from "../../../contract/connection-types";
import { sendJson } from "../../http";
import type { ApiContext, Route } from "../../routing";

/**
 * `GET /connections/types` (facts, "Connections"): every type the service takes, from the
 * contract. `icon_url` is a place on the emulator's host where the service would keep the
 * type's icon; the emulator serves no images.
 */

function typeJson(origin: string, type: string, rule: (typeof CONNECTION_TYPE_RULES)[keyof typeof CONNECTION_TYPE_RULES]) {
  return {
    type,
    name: rule.name,
    description: rule.description,
    icon_url: `${origin}/images/connection_types/${type}.png`,
    groups: connectionTypeGroups(rule.kind),
  };
}

function listTypes(ctx: ApiContext): void {
  sendJson(
    ctx.res,
    200,
    Object.entries(CONNECTION_TYPE_RULES).map(([type, rule]) => typeJson(ctx.origin, type, rule)),
  );
}

export const connectionTypesRoute: Route = { pattern: /^\/connections\/types$/, methods: { GET: listTypes } };
