import type { Availability } from "../availability";
import { isoTime } from "../clock";
import { badRequest, readFields, sendControlJson, type Endpoint } from "./io";
import { readJsonBody } from "../body";

/**
 * `POST /_emulator/outage`: the service goes away for a while and comes back by itself, on the
 * same address and with all its state, so a harness can test how a client rides out downtime.
 */

export const MAX_OUTAGE_SECONDS = 3600;

/** Validates `{"seconds": n}`: real seconds, whatever the lifecycle speed. */
export function parseOutageSeconds(body: unknown): number {
  const { seconds } = readFields(body, ["seconds"], "an outage setting");
  if (seconds === undefined) throw badRequest("seconds is required");
  if (typeof seconds !== "number" || !(seconds > 0) || seconds > MAX_OUTAGE_SECONDS) {
    throw badRequest(`seconds must be a number greater than 0 and at most ${MAX_OUTAGE_SECONDS}`);
  }
  return seconds;
}

export function outageRoutes(availability: Availability): Record<string, Endpoint> {
  return {
    POST: async (req, res) => {
      const seconds = parseOutageSeconds(await readJsonBody(req));
      const until = Date.now() + seconds * 1000;
      // The answer must reach the client before the outage drops its connection with the rest;
      // "finish" is when it has, "close" comes instead when the client left first.
      let started = false;
      const startOutage = (): void => {
        if (!started) void availability.suspendUntil(until);
        started = true;
      };
      res.once("finish", startOutage).once("close", startOutage);
      res.setHeader("Connection", "close");
      sendControlJson(res, 202, { seconds, until: isoTime(until) });
    },
  };
}
