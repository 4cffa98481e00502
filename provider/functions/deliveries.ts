/** A delivery by id (facts, "Deliveries"). */
import { z } from "zod";
import { getDelivery as fetchDelivery, type DeliveryRecord } from "../api/deliveries";
import { camelCased, type CamelCased } from "../api/records";
import { programFunction, type FunctionContext } from "./context";
import { parseArguments, recordId } from "./arguments";

export interface GetDeliveryArgs {
  /** A number, or a string of digits (such as a Delivery's `id`). */
  deliveryId: number | string;
}

/** The delivery as the service returns it, with camelCase field names; a destination's schema is `schema`. */
export type DeliveryInfo = CamelCased<DeliveryRecord>;

const getArgs = z.strictObject({ deliveryId: recordId() });

export const getDelivery = programFunction(async function getDelivery(ctx: FunctionContext, args: GetDeliveryArgs): Promise<DeliveryInfo> {
  const { deliveryId } = parseArguments("getDelivery", getArgs, args);
  return camelCased(await fetchDelivery(ctx.request, deliveryId));
});
