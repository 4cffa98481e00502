import { sendJson } from "../../http";
import type { ApiContext, Route } from "../../routing";
import { userJson } from "./json";

/** `GET {host}/user`: the user the API key names, whichever account they reach. */
function getUser(ctx: ApiContext): void {
  sendJson(ctx.res, 200, userJson(ctx.store, ctx.caller.user, ctx.origin));
}

export const userRoute: Route = { pattern: /^\/user$/, methods: { GET: getUser } };
