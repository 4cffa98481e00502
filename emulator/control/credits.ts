import { badRequest, readFields, sendControlJson, type Endpoint } from "./io";
import type { CreditLedger } from "../credits";
import { readJsonBody } from "../body";
import { allUsers } from "../areas/users/interface";
import type { Store } from "../store";

/**
 * `/_emulator/credits`: every user's credit window, and the means to use it up or renew it, so
 * a harness can test how a client meets the hourly allowance without making thousands of calls
 * or waiting an hour.
 */

interface CreditSetting {
  remaining: number;
  userIds: number[];
}

function userIds(store: Store): number[] {
  return allUsers(store)
    .map((user) => user.id)
    .sort((a, b) => a - b);
}

function readRemaining(value: unknown, limit: number): number {
  if (value === undefined) throw badRequest("remaining is required");
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > limit) {
    throw badRequest(`remaining must be an integer from 0 to ${limit}`);
  }
  return value;
}

/** The one user named, or every user of every account when none is. */
function readUserIds(value: unknown, store: Store): number[] {
  const all = userIds(store);
  if (value === undefined) return all;
  if (typeof value !== "number" || !Number.isInteger(value)) throw badRequest("userId must be an integer");
  if (!all.includes(value)) throw badRequest(`userId ${value} is not a user of any account`);
  return [value];
}

/** Validates the body of `PUT /_emulator/credits`: `{"remaining": n, "userId"?: id}`. */
export function parseCreditSetting(body: unknown, store: Store, limit: number): CreditSetting {
  const fields = readFields(body, ["remaining", "userId"], "a credit setting");
  return { remaining: readRemaining(fields.remaining, limit), userIds: readUserIds(fields.userId, store) };
}

export function creditRoutes(store: Store, credits: CreditLedger): Record<string, Endpoint> {
  const windows = () => userIds(store).map((userId) => credits.window(userId));
  return {
    GET: (_req, res) => sendControlJson(res, 200, windows()),
    PUT: async (req, res) => {
      const { remaining, userIds: chosen } = parseCreditSetting(await readJsonBody(req), store, credits.perHour);
      for (const userId of chosen) credits.setRemaining(userId, remaining);
      sendControlJson(res, 200, windows());
    },
    DELETE: (_req, res) => {
      credits.renewAll();
      sendControlJson(res, 200, windows());
    },
  };
}
