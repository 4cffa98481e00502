// A warehouse the service reads from and writes to, and a daily pipeline on it: a package from the
// service's "Daily rollup" template, its schedule and cluster, and a hook that is told of failed
// runs. `pulumi preview` shows each; `pulumi up` makes them.
import * as pulumi from "@pulumi/pulumi";
import * as etl from "@pulumi-etl/sdk";

const config = new pulumi.Config();

// The password is the stack's secret (`pulumi config set --secret warehousePassword ...`), stored
// only encrypted; the service tries the settings before it creates the connection.
const warehouse = new etl.Connection("warehouse", {
  type: "postgres",
  name: "warehouse",
  host: config.get("warehouseHost") ?? "warehouse.db.example.com",
  database: "analytics",
  username: "etl_loader",
  password: config.requireSecret("warehousePassword"),
});

// Every day at 06:00 UTC (`timeZone` takes another zone) on two nodes of a cluster of its own;
// a failed run is posted to the alert address.
const rollup = new etl.Pipeline("daily-rollup", {
  name: "daily rollup",
  template: { id: 2, sourceConnectionId: warehouse.id, destinationConnectionId: warehouse.id },
  schedule: { cron: "0 6 * * *" },
  cluster: { nodes: 2, reuse: "self" },
  failureAlert: { type: "web", settings: { url: config.get("alertUrl") ?? "https://alerts.example.com/etl" } },
});

export const warehouseId = warehouse.id;
export const packageId = rollup.packageId;
export const scheduleId = rollup.scheduleId;
export const nextRunAt = rollup.nextRunAt;
export const alertHookId = rollup.hookId;
