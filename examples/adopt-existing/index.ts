import * as pulumi from "@pulumi/pulumi";
import * as etl from "pulumi-etl";

/**
 * Records made by hand in the service's web application, brought under Pulumi. `importId`
 * makes the first `pulumi up` take over the existing record instead of creating another; the
 * inputs then describe it from here on, and differences are updated in place where the API
 * allows. The ids default to the emulator's default account.
 */
const config = new pulumi.Config();

const warehouses = new etl.ConnectionGroup("warehouses", {
  importId: config.get("connectionGroupId") ?? "401",
  name: "warehouses",
  description: "Where curated data lands (managed by Pulumi)",
  connections: [
    { id: 301, type: "postgres" },
    { id: 303, type: "mysql" },
  ],
});

const sandbox = new etl.Cluster("shared-sandbox", {
  importId: config.get("clusterId") ?? "201",
  type: "sandbox",
  nodes: 1,
  name: "shared-sandbox",
  description: "For trying packages out",
  terminateOnIdle: true,
  timeToIdle: 1800,
});

export const connectionGroupId = warehouses.id;
export const connectionGroupDescription = warehouses.description;
export const clusterId = sandbox.id;
export const clusterStatus = sandbox.status;
