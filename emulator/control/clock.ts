import { advanceLifecycles } from "../lifecycle";
import { readJsonBody } from "../body";
import { isAdjustable } from "../clock";
import { HttpError, NOT_FOUND_MESSAGE } from "../http";
import type { Store } from "../store";
import { badRequest, readFields, sendControlJson, type Endpoint } from "./io";

/**
 * `/_emulator/clock`: the lifecycles' speed, which a harness may change while the service runs,
 * say to let a long job it has watched long enough end at once. Everything due at the old speed
 * happens first; a step under way is then timed at the new speed from when it began, and one
 * that would have ended already ends at the moment of the change.
 */

export function parseSpeed(body: unknown): number {
  const { speed } = readFields(body, ["speed"], "a clock setting");
  if (speed === undefined) throw badRequest("speed is required");
  if (typeof speed !== "number" || !(speed > 0) || !Number.isFinite(speed)) throw badRequest("speed must be a number greater than 0");
  return speed;
}

export function clockRoutes(store: Store): Record<string, Endpoint> {
  const clock = store.clock;
  return {
    GET: (_req, res) => sendControlJson(res, 200, { speed: clock.speed }),
    PUT: async (req, res) => {
      const speed = parseSpeed(await readJsonBody(req));
      if (!isAdjustable(clock)) throw new HttpError(404, NOT_FOUND_MESSAGE);
      advanceLifecycles(store);
      clock.setSpeed(speed);
      sendControlJson(res, 200, { speed: clock.speed });
    },
  };
}
