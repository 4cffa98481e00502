/** Exporting deliveries: both ends' connections as references; the pipeline package the service made is the delivery's. */
import { deliveryRecord, type DeliveryRecord } from "../../api/deliveries";
import { withConnectionReference, type ExportContext, type ExportDeclaration } from "../shared/exported";

type End = { connection: { id: number; type: string }; properties: Record<string, unknown> };

function withReference(end: End, context: ExportContext): End {
  return { ...end, connection: withConnectionReference(end.connection, context) };
}

export const deliveryExport: ExportDeclaration<DeliveryRecord> = {
  listing: { method: "GET", path: "/deliveries", query: { direction: "asc", limit: 100 } },
  item: deliveryRecord,
  name: (delivery) => delivery.name,
  owns: (delivery) => (delivery.package_id === null || delivery.package_id === undefined ? [] : [{ kind: "Package", id: String(delivery.package_id) }]),
  inputs: (inputs, _delivery, context) => ({
    ...inputs,
    source: withReference(inputs.source as End, context),
    destination: withReference(inputs.destination as End, context),
  }),
};
