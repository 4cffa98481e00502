// The language lifecycle's program in TypeScript through the generated SDK: a key, a connection
// with a secret password, a schedule, a job run and a package, and two functions.
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
const nightly = new etl.Schedule("nightly", {
  name: config.require("scheduleName"),
  interval: { amount: 1, unit: "days" },
  task: { nodes: 2, packages: [{ packageId: "101" }] },
});
const backfill = new etl.JobRun("backfill", { clusterId: 201, packageId: 101 });
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

const found = etl.getPackageOutput({ packageId: 101 });
const regions = etl.getRegionsOutput({ type: "s3" });

export const keyId = deploy.id;
export const fingerprint = deploy.fingerprint;
export const warehouseId = warehouse.id;
export const password = warehouse.password;
export const scheduleId = nightly.id;
export const jobStatus = backfill.status;
export const packageValidation = copy.validationStatus;
export const packageName = found.name;
export const regionCount = regions.items.length;
