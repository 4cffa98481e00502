import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as etl from "pulumi-etl";

// Which records of the account to build on; the defaults match the emulator's default account.
const config = new pulumi.Config();
const rollupPackageId = config.getNumber("rollupPackageId") ?? 101;
const warehouseHost = config.get("warehouseHost") ?? "warehouse.db.example.com";

// Where curated data lands: a PostgreSQL warehouse and an S3 bucket. Their passwords come from
// the stack's secrets (`pulumi config set --secret warehousePassword ...`) and are stored
// only encrypted; the service tries the settings before creating each connection.
const warehouse = new etl.Connection("warehouse", {
  type: "postgres",
  name: "warehouse",
  host: warehouseHost,
  database: "analytics",
  username: "etl_loader",
  password: config.requireSecret("warehousePassword"),
});

const bucket = new etl.Connection("landing-bucket", {
  type: "s3",
  name: "landing-bucket",
  username: "AKIAQUICKSTART0000001",
  password: config.requireSecret("bucketSecretKey"),
  region: "eu-west-1",
});

// The public half of the key that deployments use to reach cluster machines.
const deployKey = new etl.PublicKey("deploy-key", {
  publicKey: fs.readFileSync(path.join(__dirname, "deploy_key.pub"), "utf8"),
  name: "quickstart deploy key",
});

// The destinations the analytics team may load into, as one group.
const warehouses = new etl.ConnectionGroup("analytics-warehouses", {
  name: "analytics-warehouses",
  description: "Curated destinations for the analytics team",
  connections: [warehouse, bucket],
});

// A small cluster that terminates itself after half an hour without work.
const cluster = new etl.Cluster("analytics", {
  name: "analytics",
  description: "Runs the nightly rollups",
  nodes: 2,
  terminateOnIdle: true,
  timeToIdle: 1800,
});

// Look the package up first, so a wrong or archived package fails before anything runs.
const rollup = etl.getPackage({ packageId: rollupPackageId }).then((pkg) => {
  if (pkg.status !== "active") throw new Error(`package ${pkg.id} (${pkg.name}) is ${pkg.status}, not active`);
  return pkg;
});

// One run of the package on the cluster; it runs again only when its inputs or triggers change.
const nightlyRollup = new etl.JobRun("orders-rollup", {
  clusterId: cluster.id,
  packageId: rollup.then((pkg) => pkg.id),
  variables: { run_date: "2026-11-20", region: "all" },
  triggers: [rollup.then((pkg) => pkg.updatedAt)],
  timeoutSeconds: 1800,
});

export const deployKeyFingerprint = deployKey.fingerprint;
export const warehouseConnectionId = warehouse.id;
export const warehousePort = warehouse.port;
export const connectionGroupId = warehouses.id;
export const connectionGroupConnections = warehouses.connections.apply((connections) => connections.map((c) => c.name));
export const clusterId = cluster.id;
export const clusterStatus = cluster.status;
export const rollupPackage = rollup.then((pkg) => pkg.name);
export const rollupJobId = nightlyRollup.id;
export const rollupStatus = nightlyRollup.status;
export const rollupRecords = nightlyRollup.outputs.apply((outputs) => Object.fromEntries(outputs.map((output) => [output.name, output.recordsCount])));
