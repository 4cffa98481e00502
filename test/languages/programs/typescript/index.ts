// The language lifecycle's program in TypeScript through the generated SDK: a key, a connection
// with a secret password, a schedule, a job run and a package, and two functions; resources
// given as inputs: connections to a group and a delivery, the package to the schedule, a cluster
// to the job run; and a Pipeline whose package starts from a template, on the connection.
import * as pulumi from "@pulumi/pulumi";
import * as etl from "@pulumi-etl/sdk";

const config = new pulumi.Config("test");

const deploy = new etl.PublicKey("deploy", { publicKey: config.require("keyLine"), name: config.require("keyName") });
const warehouse = new etl.Connection("warehouse", {
  type: "postgres",
  name: "warehouse",
  host: "warehouse.db.example.com",
  username: "etl",
  password: config.requireSecret("password"),
  database: "analytics",
});
const bucket = new etl.Connection("bucket", { type: "s3", name: "bucket", username: "AKIAEXAMPLE", password: config.requireSecret("password") });
const group = new etl.ConnectionGroup("analytics", { name: "analytics", connections: [warehouse, bucket] });
const delivery = new etl.Delivery("orders", {
  interval: { amount: 1, unit: "days" },
  source: { connection: warehouse, properties: { table: "orders" } },
  destination: { connection: bucket, properties: { path: "orders/" } },
});
const compute = new etl.Cluster("compute", { nodes: 1, name: "compute" });
const backfill = new etl.JobRun("backfill", { clusterId: compute, packageId: 101 });
const copy = new etl.Package("copy", {
  name: "copy orders",
  dataFlow: {
    components: [
      { name: "rows", type: "source", connection: { id: warehouse.id }, table: "orders" },
      { name: "copy", type: "destination", connection: { id: warehouse.id }, table: "orders_copy" },
    ],
    edges: [{ from: "rows", to: "copy" }],
  },
});
const nightly = new etl.Schedule("nightly", {
  name: config.require("scheduleName"),
  interval: { amount: 1, unit: "days" },
  task: { nodes: 2, packages: [{ packageId: copy }] },
});
const rollup = new etl.Pipeline("rollup", {
  name: "orders rollup",
  template: { id: 1, sourceConnectionId: warehouse.id, destinationConnectionId: warehouse.id },
  schedule: { cron: "0 6 * * *", timeZone: "Tokyo" },
  cluster: { nodes: 3 },
  failureAlert: { type: "web", settings: { url: "https://alerts.example.com/etl" } },
});

const found = etl.getPackageOutput({ packageId: 101 });
const regions = etl.getRegionsOutput({ type: "s3" });

export const keyId = deploy.id;
export const fingerprint = deploy.fingerprint;
export const warehouseId = warehouse.id;
export const password = warehouse.password;
export const scheduleId = nightly.id;
export const jobStatus = backfill.status;
export const jobClusterId = backfill.clusterId;
export const clusterId = compute.id;
export const groupId = group.id;
export const deliverySource = delivery.source;
export const deliveryDestination = delivery.destination;
export const bucketId = bucket.id;
export const packageId = copy.id;
export const scheduleTask = nightly.task;
export const packageValidation = copy.validationStatus;
export const packageName = found.name;
export const regionCount = regions.items.length;
export const pipelinePackageId = rollup.packageId;
export const pipelineScheduleId = rollup.scheduleId;
export const pipelineHookId = rollup.hookId;
