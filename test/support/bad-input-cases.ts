/**
 * The bad inputs of every kind that `test/support/bad-input.ts` previews on both surfaces:
 * each names the input its failure must name, and what must never be printed.
 */
import type { ResourceKind } from "pulumi-etl/plugin";
import { freshEd25519Key } from "./soak";

export const KEY = freshEd25519Key("bad-input");
const KEY_WITHOUT_COMMENT = KEY.split(" ").slice(0, 2).join(" ");
const PRIVATE_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW";
const PRIVATE_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${PRIVATE_BODY}\n-----END OPENSSH PRIVATE KEY-----\n`;
const LONG = "x".repeat(256);
/** Well-formed base64 and wire format, but a 16-byte ed25519 body, which the service refuses. */
const wireMpint = (bytes: Buffer) => wire(bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
const SMALL_RSA = `ssh-rsa ${Buffer.concat([wire("ssh-rsa"), wireMpint(Buffer.from([1, 0, 1])), wireMpint(Buffer.alloc(64, 0xc5))]).toString("base64")} small`;
const DSA = `ssh-dss ${Buffer.concat(["ssh-dss", "p", "q", "g", "y"].map((field) => wire(field))).toString("base64")} old`;
const SHORT_ED25519 = `ssh-ed25519 ${Buffer.concat([wire("ssh-ed25519"), wire(Buffer.alloc(16, 7))]).toString("base64")} short`;

function wire(data: string | Buffer): Buffer {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  return Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
}
const GROUP = { name: "g", connections: [{ id: 301, type: "postgres" }] };
const RUN = { clusterId: 201, packageId: 101 };
const FLOW = {
  components: [
    { name: "rows", type: "source", connection: { id: 301 }, table: "orders" },
    { name: "lake", type: "destination", connection: { id: 303 }, path: "orders/" },
  ],
  edges: [{ from: "rows", to: "lake" }],
};
const FLOW_PACKAGE = { name: "orders", dataFlow: FLOW };
const NIGHTLY = { name: "nightly", interval: { amount: 1, unit: "days" }, task: { packages: [{ packageId: 101 }] } };
const WEB_HOOK = { type: "web", events: ["job.failed"], settings: { url: "https://alerts.example.com/etl" } };
const WAREHOUSE = { type: "postgres", name: "warehouse", host: "db.example.com", username: "etl", password: "pw-SECRET-9" };
const ACCOUNT = { name: "staging", region: "amazon-web-services::us-east-1" };
const DELIVERY = {
  source: { connection: { id: 306, type: "salesforce" } },
  destination: { connection: { id: 301, type: "redshift" }, properties: { schema: "crm" } },
};

export interface Case {
  resource: ResourceKind;
  what: string;
  inputs: Record<string, unknown>;
  /** The input the failure must name, as the output prints it (nested: "connections.1.id"). */
  field: string;
  /** Text that must not appear in the output (a pasted secret). */
  hidden?: string;
  /** An input the program marks secret (`pulumi.secret`). */
  secret?: string;
}

const c = (resource: ResourceKind, what: string, field: string, inputs: Record<string, unknown>, hidden?: string): Case => ({
  resource,
  what,
  inputs,
  field,
  hidden,
});
/** A case whose offending input the program marked secret: its value must appear nowhere. */
const s = (resource: ResourceKind, what: string, field: string, inputs: Record<string, unknown>, secret: string): Case => ({
  ...c(resource, what, field, inputs, "SECRET"),
  secret,
});

export const CASES: Case[] = [
  c("PublicKey", "key of the wrong type", "publicKey", { publicKey: 42 }),
  c("PublicKey", "missing key", "publicKey", { name: "k" }),
  c("PublicKey", "empty key", "publicKey", { publicKey: "" }),
  c("PublicKey", "blob not base64", "publicKey", { publicKey: "ssh-rsa not-base64!", name: "k" }),
  c("PublicKey", "unsupported key type", "publicKey", { publicKey: "ssh-foo AAAAB3NzaC1yc2E= k", name: "k" }),
  c("PublicKey", "blob of another type", "publicKey", { publicKey: `ssh-rsa ${KEY.split(" ")[1]} k` }),
  c("PublicKey", "private key pasted", "publicKey", { publicKey: PRIVATE_KEY, name: "k" }, PRIVATE_BODY),
  c("PublicKey", "ed25519 body of 16 bytes", "publicKey", { publicKey: SHORT_ED25519 }),
  c("PublicKey", "key on two lines", "publicKey", { publicKey: `${KEY}\n${KEY}` }),
  c("PublicKey", "RSA key of 512 bits", "publicKey", { publicKey: SMALL_RSA }),
  c("PublicKey", "DSA key", "publicKey", { publicKey: DSA }),
  c("PublicKey", "empty name", "name", { publicKey: KEY, name: "" }),
  c("PublicKey", "name over 255 characters", "name", { publicKey: KEY, name: LONG }),
  c("PublicKey", "name with a control character", "name", { publicKey: KEY, name: "a\u0007b" }),
  c("PublicKey", "no name and a key without comment", "name", { publicKey: KEY_WITHOUT_COMMENT }),
  c("PublicKey", "unknown input", "comment", { publicKey: KEY, comment: "laptop" }),
  c("PublicKey", "importId not a number", "importId", { publicKey: KEY, importId: "key-10" }),
  c("ConnectionGroup", "missing name", "name", { connections: GROUP.connections }),
  c("ConnectionGroup", "empty name", "name", { ...GROUP, name: "" }),
  c("ConnectionGroup", "blank name", "name", { ...GROUP, name: "   " }),
  c("ConnectionGroup", "name over 255 characters", "name", { ...GROUP, name: LONG }),
  c("ConnectionGroup", "description of the wrong type", "description", { ...GROUP, description: 42 }),
  c("ConnectionGroup", "connections not a list", "connections", { ...GROUP, connections: "301" }),
  c("ConnectionGroup", "connection id not numeric", "connections.0.id", { ...GROUP, connections: [{ id: "warehouse", type: "postgres" }] }),
  c("ConnectionGroup", "connection without type", "connections.0.type", { ...GROUP, connections: [{ id: 301 }] }),
  c("ConnectionGroup", "duplicate connection", "connections.1.id", {
    ...GROUP,
    connections: [
      { id: 301, type: "postgres" },
      { id: "301", type: "postgres" },
    ],
  }),
  c("ConnectionGroup", "unknown field in a connection", "connections.0.name", { ...GROUP, connections: [{ id: 301, type: "postgres", name: "pg" }] }),
  c("ConnectionGroup", "connection of a type that cannot join a group", "connections.0.type", { ...GROUP, connections: [{ id: 301, type: "web_analytics" }] }),
  c("ConnectionGroup", "connection of an unknown type", "connections.0.type", { ...GROUP, connections: [{ id: 301, type: "postgress" }] }),
  c("ConnectionGroup", "importId with a fraction", "importId", { ...GROUP, importId: 1.5 }),
  c("Cluster", "no nodes", "nodes", { type: "production" }),
  c("Cluster", "zero nodes", "nodes", { nodes: 0 }),
  c("Cluster", "too many nodes", "nodes", { nodes: 101 }),
  c("Cluster", "fractional nodes", "nodes", { nodes: 1.5 }),
  c("Cluster", "nodes as text", "nodes", { nodes: "two" }),
  c("Cluster", "unknown type", "type", { nodes: 1, type: "huge" }),
  c("Cluster", "sandbox with 2 nodes", "nodes", { nodes: 2, type: "sandbox" }),
  c("Cluster", "timeToIdle too short", "timeToIdle", { nodes: 1, timeToIdle: 10 }),
  c("Cluster", "terminateOnIdle as text", "terminateOnIdle", { nodes: 1, terminateOnIdle: "yes" }),
  c("Cluster", "name over 255 characters", "name", { nodes: 1, name: LONG }),
  c("Cluster", "empty region", "region", { nodes: 1, region: "" }),
  c("Cluster", "zero timeout", "timeoutSeconds", { nodes: 1, timeoutSeconds: 0 }),
  c("Cluster", "unknown input", "size", { nodes: 1, size: "large" }),
  c("JobRun", "missing clusterId", "clusterId", { packageId: 101 }),
  c("JobRun", "clusterId not numeric", "clusterId", { ...RUN, clusterId: "analytics" }),
  c("JobRun", "negative packageId", "packageId", { ...RUN, packageId: -5 }),
  c("JobRun", "variable with a number value", "variables.batch", { ...RUN, variables: { batch: 1 } }),
  c("JobRun", "dynamic variable with a boolean value", "dynamicVariables.full", { ...RUN, dynamicVariables: { full: true } }),
  c("JobRun", "variables as text", "variables", { ...RUN, variables: "region=eu" }),
  c("JobRun", "variables over the service's request size", "variables", { ...RUN, variables: { big: "x".repeat(1_100_000) } }),
  c("JobRun", "timeout over a week", "timeoutSeconds", { ...RUN, timeoutSeconds: 604_801 }),
  c("JobRun", "waitForCompletion as text", "waitForCompletion", { ...RUN, waitForCompletion: "true" }),
  c("JobRun", "unknown input", "cluster", { ...RUN, cluster: 201 }),
  c("JobRun", "importId zero", "importId", { ...RUN, importId: 0 }),
  c("Schedule", "interval of zero", "interval.amount", { ...NIGHTLY, interval: { amount: 0, unit: "days" } }),
  c("Schedule", "unknown interval unit", "interval.unit", { ...NIGHTLY, interval: { amount: 1, unit: "fortnights" } }),
  c("Schedule", "no packages", "task.packages", { ...NIGHTLY, task: { packages: [] } }),
  c("Schedule", "six retries", "autoRetryAttempts", { ...NIGHTLY, autoRetryAttempts: 6 }),
  c("Schedule", "start that is not a time", "startAt", { ...NIGHTLY, startAt: "tomorrow night" }),
  c("Schedule", "unknown reuse strategy", "reuseClusterStrategy", { ...NIGHTLY, reuseClusterStrategy: "mine" }),
  c("Hook", "unknown type", "type", { ...WEB_HOOK, type: "sms" }),
  c("Hook", "no events", "events", { ...WEB_HOOK, events: [] }),
  c("Hook", "unknown event", "events.0", { ...WEB_HOOK, events: ["job.finished"] }),
  c("Hook", "url that is not http", "settings.url", { ...WEB_HOOK, settings: { url: "ftp://alerts.example.com" } }),
  c("Hook", "a setting of another type", "settings.serviceKey", { ...WEB_HOOK, settings: { url: "https://a.example.com", serviceKey: "k" } }),
  c("Hook", "email that is not an address", "settings.emails.0", { type: "email", events: ["job"], settings: { emails: ["ops"] } }),
  s(
    "Hook",
    "secret settings with a missing key",
    "settings.serviceKey",
    { type: "pagerduty", events: ["job"], settings: { pdAccount: "acme-SECRET-pd", serviceName: "etl" } },
    "settings",
  ),
  c("Package", "an edge to no component", "dataFlow", { ...FLOW_PACKAGE, dataFlow: { ...FLOW, edges: [...FLOW.edges, { from: "rows", to: "nowhere" }] } }),
  c("Package", "a component of an unknown type", "dataFlow.components.0.type", {
    ...FLOW_PACKAGE,
    dataFlow: { ...FLOW, components: [{ name: "rows", type: "pivot" }] },
  }),
  c("Package", "a misspelt component field", "dataFlow.components.0.conection", {
    ...FLOW_PACKAGE,
    dataFlow: { ...FLOW, components: [{ ...FLOW.components[0], conection: { id: 1 } }, FLOW.components[1]] },
  }),
  c("Package", "a flow that is not JSON", "dataFlow", { ...FLOW_PACKAGE, dataFlow: "{components" }),
  c("Package", "a variable used and not defined", "dataFlow", {
    ...FLOW_PACKAGE,
    dataFlow: { ...FLOW, components: [{ ...FLOW.components[0], table: "${schema}.orders" }, FLOW.components[1]] },
  }),
  c("Package", "a destination feeding a source", "dataFlow", { ...FLOW_PACKAGE, dataFlow: { ...FLOW, edges: [...FLOW.edges, { from: "lake", to: "rows" }] } }),
  c("Package", "unknown flow type", "flowType", { ...FLOW_PACKAGE, flowType: "graph" }),
  c("Package", "a flow that is a number", "dataFlow", { name: "orders", dataFlow: 42 }),
  c("Package", "a connection id of zero", "dataFlow.components.0.connection.id", {
    ...FLOW_PACKAGE,
    dataFlow: { ...FLOW, components: [{ ...FLOW.components[0], connection: { id: 0 } }, FLOW.components[1]] },
  }),
  c("Package", "a connection.type that cannot be written", "dataFlow", {
    ...FLOW_PACKAGE,
    dataFlow: { ...FLOW, components: [FLOW.components[0], { ...FLOW.components[1], connection: { id: 303, type: "salesforce" } }] },
  }),
  c("Member", "email that is not an address", "email", { email: "dana" }),
  c("Member", "missing email", "email", { role: "admin" }),
  c("Member", "the owner's role", "role", { email: "kim@example.com", role: "owner" }),
  c("Member", "unknown role", "role", { email: "kim@example.com", role: "viewer" }),
  c("Member", "importId neither an id nor an email", "importId", { email: "kim@example.com", importId: "kim" }),
  c("Member", "unknown input", "team", { email: "kim@example.com", team: "data" }),
  c("Delivery", "missing source", "source", { destination: DELIVERY.destination }),
  c("Delivery", "missing destination", "destination", { source: DELIVERY.source }),
  c("Delivery", "connection without id", "source.connection.id", { ...DELIVERY, source: { connection: { type: "salesforce" } } }),
  c("Delivery", "destination that cannot be written", "destination.connection.type", {
    ...DELIVERY,
    destination: { connection: { id: 306, type: "salesforce" } },
  }),
  c("Delivery", "interval unit not in the list", "interval.unit", { ...DELIVERY, interval: { amount: 1, unit: "fortnights" } }),
  c("Delivery", "interval amount not a positive integer", "interval.amount", { ...DELIVERY, interval: { amount: 0, unit: "days" } }),
  c("Delivery", "fractional interval amount", "interval.amount", { ...DELIVERY, interval: { amount: 2.5, unit: "days" } }),
  c("Delivery", "interval without a unit", "interval.unit", { ...DELIVERY, interval: { amount: 1 } }),
  c("Delivery", "schema and schema_name that differ", "destination.properties.schema_name", {
    ...DELIVERY,
    destination: { ...DELIVERY.destination, properties: { schema: "crm", schema_name: "sales" } },
  }),
  c("Connection", "unknown type", "type", { ...WAREHOUSE, type: "postgresql" }, "pw-SECRET-9"),
  c("Connection", "missing required attribute", "host", { ...WAREHOUSE, host: undefined }, "pw-SECRET-9"),
  c("Connection", "attribute of another type", "warehouse", { ...WAREHOUSE, warehouse: "LOAD_WH" }, "pw-SECRET-9"),
  c("Connection", "port out of range", "port", { ...WAREHOUSE, port: 70_000 }, "pw-SECRET-9"),
  c("Connection", "port as text", "port", { ...WAREHOUSE, port: "5432" }, "pw-SECRET-9"),
  c("Connection", "unknown tunnel type", "tunnelType", { ...WAREHOUSE, tunnelType: "vpn" }, "pw-SECRET-9"),
  c("Connection", "snowflake without its account", "accountName", {
    type: "snowflake",
    name: "w",
    username: "u",
    password: "p",
    database: "d",
    warehouse: "w",
    region: "snowflake::us-east-1",
  }),
  c("Connection", "OAuth code without its redirect", "redirectUri", { type: "salesforce", name: "crm", environment: "production", code: "c" }),
  c("Connection", "blank name", "name", { ...WAREHOUSE, name: " " }, "pw-SECRET-9"),
  c("Connection", "host of spaces only", "host", { ...WAREHOUSE, host: "   " }, "pw-SECRET-9"),
  c("Connection", "host with a space inside", "host", { ...WAREHOUSE, host: "db example.com" }, "pw-SECRET-9"),
  c("Connection", "empty required password", "password", { ...WAREHOUSE, password: "" }),
  c("Connection", "port with a fraction", "port", { ...WAREHOUSE, port: 5432.5 }, "pw-SECRET-9"),
  c("Account", "missing region", "region", { name: "staging" }),
  c("Account", "region that is not a region id", "region", { ...ACCOUNT, region: "us-east-1" }),
  c("Account", "slug with a space", "slug", { ...ACCOUNT, slug: "data team" }),
  c("Account", "slug the API's own", "slug", { ...ACCOUNT, slug: "api" }),
  c("Account", "billing email that is not an address", "billingEmail", { ...ACCOUNT, billingEmail: "billing at example.com" }),
  c("UserSettings", "time zone not in the catalogue", "timeZone", { timeZone: "Mars/Olympus_Mons" }),
  c("UserSettings", "notification settings without web", "notificationSettings.web", { notificationSettings: { email: true } }),
  c("UserSettings", "newsletter not a boolean", "receiveNewsletter", { receiveNewsletter: "yes" }),
  s("Connection", "secret password with a NUL character", "password", { ...WAREHOUSE, password: "pw-SECRET-\u0000" }, "password"),
  s("JobRun", "secret clusterId not numeric", "clusterId", { ...RUN, clusterId: "cluster-SECRET-abc" }, "clusterId"),
  s("Cluster", "secret importId not numeric", "importId", { nodes: 1, importId: "import-SECRET-xyz" }, "importId"),
  s(
    "ConnectionGroup",
    "secret connection id not numeric",
    "connections.0.id",
    { ...GROUP, connections: [{ id: "conn-SECRET-q", type: "postgres" }] },
    "connections",
  ),
];
