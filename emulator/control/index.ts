import type { IncomingMessage, ServerResponse } from "node:http";
import type { Availability } from "../availability";
import { CONTROL_JSON_HEADERS, sendControlJson, type ControlRoutes, type Endpoint } from "./io";
import { creditRoutes } from "./credits";
import { hookDeliveryRoutes } from "./hook-deliveries";
import { outageRoutes } from "./outage";
import { clockRoutes } from "./clock";
import type { CreditLedger } from "../credits";
import { parseFaultConfig, type FaultInjector } from "../faults";
import { readJsonBody } from "../body";
import { HttpError, NOT_FOUND_MESSAGE } from "../http";
import { ACCOUNTS, allAccounts } from "../areas/accounts/interface";
import { membersOf } from "../areas/members/interface";
import { USERS } from "../areas/users/interface";
import { advanceLifecycles } from "../lifecycle";
import type { RequestLog } from "../request-log";
import { SERVICE_WIDE, type Row, type Store } from "../store";

/**
 * Control endpoints under `/_emulator/`, outside the API space: no authentication and no
 * version header, because they serve test harnesses rather than API clients. Their paths are
 * relied on by other tools and must not change.
 */

export const CONTROL_PREFIX = "/_emulator";

/**
 * Every record, API keys and hooks' secret settings (`secrets`) excepted (the dump may end up in
 * logs and test reports): each account with its members (`users`, in the order they joined)
 * and, per table, its rows (`memberships` hold the roles); service-wide rows beside the accounts.
 */
export function stateSnapshot(store: Store): unknown {
  advanceLifecycles(store);
  const { tables } = store.snapshot();
  // Accounts and users are shown as the accounts and their members, never as rows.
  const shownTables = Object.entries(tables).filter(([name]) => name !== ACCOUNTS.name && name !== USERS.name);
  const rowsOf = (accountId: number) =>
    Object.fromEntries(
      shownTables.map(([name, rows]) => [
        name,
        rows.filter((row) => row.accountId === accountId).map(({ accountId: _, secrets: __, ...row }: Row & { secrets?: unknown }) => row),
      ]),
    );
  return {
    accounts: allAccounts(store).map((account) => ({
      id: account.id,
      uid: account.uid,
      billing: account.billing,
      users: membersOf(store, account.id).map(({ user }) => ({ id: user.id, name: user.name, email: user.email })),
      ...rowsOf(account.id),
    })),
    ...rowsOf(SERVICE_WIDE),
  };
}

export interface ControlServices {
  store: Store;
  log: RequestLog;
  faults: FaultInjector;
  credits: CreditLedger;
  availability: Availability;
}

function faultRoutes(faults: FaultInjector): Record<string, Endpoint> {
  return {
    GET: (_req, res) => sendControlJson(res, 200, faults.status()),
    PUT: async (req, res) => {
      faults.configure(parseFaultConfig(await readJsonBody(req)));
      sendControlJson(res, 200, faults.status());
    },
    DELETE: (_req, res) => {
      faults.disable();
      sendControlJson(res, 200, faults.status());
    },
  };
}

function controlRoutes({ store, log, faults, credits, availability }: ControlServices): ControlRoutes {
  return {
    "/requests": {
      GET: (_req, res) => sendControlJson(res, 200, log.list()),
      DELETE: (_req, res) => {
        log.clear();
        sendControlJson(res, 200, {});
      },
    },
    "/state": { GET: (_req, res) => sendControlJson(res, 200, stateSnapshot(store)) },
    "/health": { GET: (_req, res) => sendControlJson(res, 200, { ok: true }) },
    "/faults": faultRoutes(faults),
    "/credits": creditRoutes(store, credits),
    "/outage": outageRoutes(availability),
    "/clock": clockRoutes(store),
    "/hook-deliveries": hookDeliveryRoutes(store),
  };
}

export type ControlHandler = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>;

/** Control answers are plain JSON, errors included. */
function asControlError(error: unknown): unknown {
  return error instanceof HttpError ? new HttpError(error.status, error.message, { ...error.headers, ...CONTROL_JSON_HEADERS }) : error;
}

function findEndpoint(routes: ControlRoutes, method: string, path: string): Endpoint {
  const methods = Object.hasOwn(routes, path) ? routes[path] : undefined;
  if (methods === undefined) throw new HttpError(404, NOT_FOUND_MESSAGE);
  const endpoint = Object.hasOwn(methods, method) ? methods[method] : undefined;
  if (endpoint === undefined) {
    const allowed = Object.keys(methods).join(", ");
    throw new HttpError(405, `Method ${method} is not allowed here; allowed: ${allowed}.`, { Allow: allowed });
  }
  return endpoint;
}

/** Returns the dispatcher for `path`, the request path below CONTROL_PREFIX (e.g. `/state`). */
export function createControlHandler(services: ControlServices): ControlHandler {
  const routes = controlRoutes(services);
  return async (req, res, path) => {
    try {
      await findEndpoint(routes, req.method ?? "GET", path)(req, res);
    } catch (error) {
      throw asControlError(error);
    }
  };
}
