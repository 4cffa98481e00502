import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError, sendJson } from "./http";
import { advanceLifecycles } from "./lifecycle";
import { SERVICE_WIDE } from "./model/product-updates";
import type { RequestLog } from "./request-log";
import type { Store } from "./store";

/**
 * Control endpoints under `/_emulator/`, outside the API space: no authentication and no
 * version header, because they serve test harnesses rather than API clients. Their paths are
 * relied on by other tools and must not change.
 */

export const CONTROL_PREFIX = "/_emulator";

const JSON_HEADERS = { "Content-Type": "application/json" };

/**
 * Every record, API keys excepted (the dump may end up in logs and test reports): each
 * account with its users and, per table, its rows; service-wide rows beside the accounts.
 */
export function stateSnapshot(store: Store): unknown {
  advanceLifecycles(store);
  const { accounts, tables } = store.snapshot();
  const rowsOf = (accountId: number) =>
    Object.fromEntries(
      Object.entries(tables).map(([name, rows]) => [
        name,
        rows.filter((row) => row.accountId === accountId).map(({ accountId: _, ...row }) => row),
      ]),
    );
  return {
    accounts: accounts.map((account) => ({
      id: account.id,
      uid: account.uid,
      billing: account.billing,
      users: account.users.map((user) => ({ id: user.id, name: user.name, email: user.email })),
      ...rowsOf(account.id),
    })),
    ...rowsOf(SERVICE_WIDE),
  };
}

type Endpoint = (res: ServerResponse) => void;

function controlRoutes(store: Store, log: RequestLog): Record<string, Record<string, Endpoint>> {
  return {
    "/requests": {
      GET: (res) => sendJson(res, 200, log.list(), JSON_HEADERS),
      DELETE: (res) => {
        log.clear();
        sendJson(res, 200, {}, JSON_HEADERS);
      },
    },
    "/state": { GET: (res) => sendJson(res, 200, stateSnapshot(store), JSON_HEADERS) },
    "/health": { GET: (res) => sendJson(res, 200, { ok: true }, JSON_HEADERS) },
  };
}

export type ControlHandler = (req: IncomingMessage, res: ServerResponse, path: string) => void;

/** Returns the dispatcher for `path`, the request path below CONTROL_PREFIX (e.g. `/state`). */
export function createControlHandler(store: Store, log: RequestLog): ControlHandler {
  const routes = controlRoutes(store, log);
  return (req, res, path) => {
    const methods = Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (methods === undefined) throw new HttpError(404, "Item not found.", JSON_HEADERS);
    const method = req.method ?? "GET";
    const handler = methods[method];
    if (handler === undefined) {
      const allowed = Object.keys(methods).join(", ");
      throw new HttpError(405, `Method ${method} is not allowed here; allowed: ${allowed}.`, { ...JSON_HEADERS, Allow: allowed });
    }
    handler(res);
  };
}
