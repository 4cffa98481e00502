import { deliveriesOf, DELIVERY_TIMEOUT_MS } from "../areas/hooks/interface";
import { readJsonBody } from "../body";
import type { Store } from "../store";
import { badRequest, describeValue, readFields, sendControlJson, type Endpoint } from "./io";

/**
 * `/_emulator/hook-deliveries`: every notification the hooks sent (web) or would have sent (the
 * other types), with its outcome, and the timeout of web deliveries, so a harness can check
 * what a receiver got, what a slack or email hook would have said, and how a slow receiver is
 * met without waiting the default timeout.
 */

function readTimeout(value: unknown): number {
  if (value === undefined) throw badRequest("timeoutMs is required");
  const { min, max } = DELIVERY_TIMEOUT_MS;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`timeoutMs must be an integer from ${min} to ${max}, not ${describeValue(value)}`);
  }
  return value;
}

export function hookDeliveryRoutes(store: Store): Record<string, Endpoint> {
  const deliveries = deliveriesOf(store);
  const status = () => ({ timeoutMs: deliveries.timeoutMs, deliveries: deliveries.list() });
  return {
    GET: (_req, res) => sendControlJson(res, 200, status()),
    PUT: async (req, res) => {
      deliveries.timeoutMs = readTimeout(readFields(await readJsonBody(req), ["timeoutMs"], "a hook delivery setting").timeoutMs);
      sendControlJson(res, 200, status());
    },
    DELETE: (_req, res) => {
      deliveries.clear();
      sendControlJson(res, 200, status());
    },
  };
}
