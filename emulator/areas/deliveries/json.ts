import { creatorJson } from "../../creators";
import { webAppUrl } from "../../routing";
import type { Store } from "../../store";
import { DELIVERIES, type DeliveryEndpoint, type DeliveryRow } from "./model";

/** The service's JSON for deliveries (facts, "Deliveries"), and for the jobs they start. */

export function deliveryUrl(baseUrl: string, id: number): string {
  return `${baseUrl}/deliveries/${id}`;
}

function deliveryHtmlUrl(baseUrl: string, id: number): string {
  return `${webAppUrl(baseUrl)}/deliveries/${id}`;
}

function endpointJson(endpoint: DeliveryEndpoint): Record<string, unknown> {
  return { connection: { id: endpoint.connectionId, type: endpoint.connectionType }, properties: endpoint.properties };
}

export function deliveryJson(delivery: DeliveryRow, baseUrl: string): Record<string, unknown> {
  return {
    id: delivery.id,
    name: delivery.name,
    description: delivery.description,
    status: delivery.status,
    status_message: delivery.statusMessage,
    interval_amount: delivery.intervalAmount,
    interval_unit: delivery.intervalUnit,
    source: endpointJson(delivery.source),
    destination: endpointJson(delivery.destination),
    package_id: delivery.packageId,
    last_run_at: delivery.lastRunAt,
    next_run_at: delivery.nextRunAt,
    owner_id: delivery.ownerId,
    created_at: delivery.createdAt,
    updated_at: delivery.updatedAt,
    url: deliveryUrl(baseUrl, delivery.id),
    html_url: deliveryHtmlUrl(baseUrl, delivery.id),
  };
}

/** A job's `creator` when a delivery started it; a deleted delivery is still named by its id. */
export function deliveryCreatorJson(store: Store, accountId: number, deliveryId: number, baseUrl: string): Record<string, unknown> {
  const name = store.find(DELIVERIES, accountId, deliveryId)?.name;
  return creatorJson({ type: "Delivery", id: deliveryId, name, url: deliveryUrl(baseUrl, deliveryId), htmlUrl: deliveryHtmlUrl(baseUrl, deliveryId) });
}
