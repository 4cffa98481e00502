import * as pulumi from "@pulumi/pulumi";
import { resourceClass } from "../shared/resource-class";
import { deliveryResource } from "./declaration";
import type { DeliveryArgs, DeliveryOutputs } from "./fields";

export type { DeliveryArgs, DeliveryConnectionArgs, DeliveryEndArgs, DeliveryOutputs } from "./fields";

/**
 * A `Connection` resource given as an end's `connection` stands for its id and type: a resource
 * itself would reach the provider as a reference, not as the values it needs.
 */
function endOf(end: unknown): unknown {
  if (typeof end !== "object" || end === null || pulumi.Output.isInstance(end)) return end;
  const { connection } = end as { connection?: unknown };
  if (!pulumi.CustomResource.isInstance(connection)) return end;
  return { ...end, connection: { id: connection.id, type: (connection as unknown as { type: pulumi.Output<string> }).type } };
}

/**
 * A source connection delivered into a destination connection every interval, through a
 * pipeline the service sets up. `up` waits until the delivery is enabled; any change replaces it.
 */
export const Delivery = resourceClass<DeliveryArgs, DeliveryOutputs>(deliveryResource, {
  prepare: (args) => ({ ...args, source: endOf(args.source), destination: endOf(args.destination) }),
});
export type Delivery = InstanceType<typeof Delivery>;
