import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as etl from "pulumi-etl";

/**
 * One flow, promoted: `flows/won-deals.json` is the package's export document (from the web
 * application, through `getPackageExport`), reviewed in pull requests. Each stack declares it in
 * its own account: `dev` as it is, `production` with its own connections, a nightly schedule of
 * it and a delivery of the CRM's contacts into the warehouse. The document names the development
 * account's connections; `connectionIds` maps them to the stack's account.
 */
const config = new pulumi.Config();
const production = config.get("environment") === "production";
const connectionIds = config.getObject<Record<string, number>>("connectionIds") ?? {};

interface ExportDocument {
  name: string;
  description?: string;
  variables?: Record<string, string>;
  data_flow_json: { components: { connection?: { id: number } }[]; edges: unknown[] };
}

const document = JSON.parse(fs.readFileSync(path.join(__dirname, "flows", "won-deals.json"), "utf8")) as ExportDocument;

/** The stack's connection for one the document names (the development account's id). */
const here = (developmentId: number): number => connectionIds[String(developmentId)] ?? developmentId;

/** The document's flow with the stack's connections in place of the development account's. */
function flowOfThisAccount(flow: ExportDocument["data_flow_json"]) {
  const components = flow.components.map((component) =>
    component.connection === undefined ? component : { ...component, connection: { id: here(component.connection.id) } },
  );
  return { ...flow, components };
}

/** The development account's CRM and warehouse connections, as the document names them. */
const CRM = 306;
const WAREHOUSE = 301;

const wonDeals = new etl.Package("won-deals", {
  name: document.name,
  description: document.description,
  variables: document.variables,
  dataFlow: flowOfThisAccount(document.data_flow_json),
});

const nightly = production
  ? new etl.Schedule("nightly-won-deals", {
      name: "nightly won deals",
      startAt: config.get("startAt") ?? "2030-01-01T02:00:00Z",
      interval: { amount: 1, unit: "days" },
      task: { nodes: 1, packages: [{ packageId: wonDeals }] },
    })
  : undefined;

/** Every six hours, the CRM's contacts land in the warehouse's `crm` schema. */
const contacts = production
  ? new etl.Delivery("crm-contacts", {
      name: "crm contacts",
      interval: { amount: 6, unit: "hours" },
      source: { connection: { id: here(CRM), type: "crm_platform" }, properties: { object: "Contact" } },
      destination: { connection: { id: here(WAREHOUSE), type: "postgres" }, properties: { schema: "crm", table: "contacts" } },
    })
  : undefined;

export const packageId = wonDeals.id;
export const packageVersion = wonDeals.version;
export const validation = wonDeals.validationStatus;
export const scheduleId = nightly?.id;
export const deliveryId = contacts?.id;
export const deliveryStatus = contacts?.status;
