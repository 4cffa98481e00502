/**
 * The soak's stack: how many resources of each kind it declares and with what arguments, and the
 * account the local service starts with for them. The kinds come from the provider's one list:
 * a kind without an entry here fails to compile, so the stack and the ledger cannot disagree.
 *
 * Every service object the soak makes carries its resource's name: in its `name` (a member's in
 * its email, an account's in its slug), jobs in their `soak_run` variable (with the cycle in
 * `soak_cycle`, since each cycle runs the package anew and earlier runs stay on the service).
 * The user settings are the key's user's, which the service holds before the soak and after it.
 */
import { RESOURCE_KINDS, type ResourceKind } from "pulumi-etl/plugin";
import { freshEd25519Key } from "./keys";
import { declare as declareOn, type Surface } from "./surfaces";

/** The soak's connections' password: like the API key, it may appear in no file and no output. */
export const CONNECTION_PASSWORD = "soak-connection-SECRET-pw";

export const RUN_CLUSTER = { id: 201, name: "soak-runner", type: "production" as const, nodes: 4, terminateOnIdle: false };
export const SHORT_PACKAGE = { id: 101, name: "soak-short", run: { seconds: 3, outcome: "completed" as const, outputs: [{ name: "out", records: 10 }] } };
export const CONNECTIONS = [
  { id: 301, name: "pg", type: "postgres" },
  { id: 302, name: "my", type: "mysql" },
  { id: 303, name: "bucket", type: "s3" },
];
const [DATABASE, , BUCKET] = CONNECTIONS as [(typeof CONNECTIONS)[number], unknown, (typeof CONNECTIONS)[number]];

/** What the local service holds before the soak: what its resources refer to. */
/** A cluster another user made: the stack's user watches it only through the stack's watcher. */
export const WATCHED_CLUSTER = { id: 202, name: "soak-watched", nodes: 1, ownerId: 9 };
export const SOAK_ACCOUNT = { packages: [SHORT_PACKAGE], clusters: [RUN_CLUSTER, WATCHED_CLUSTER], connections: CONNECTIONS };

/** What the program needs beyond the index: fresh SSH keys, and the cycle under way (for the jobs). */
export interface StackInputs {
  keys: readonly string[];
  cycle(): number;
}

interface KindInStack {
  count: number;
  /** The resource name of the i-th resource of the kind. */
  name(i: number): string;
  args(i: number, inputs: StackInputs): Record<string, unknown>;
}

const named = (prefix: string) => (i: number) => `soak-${prefix}-${i}`;

/** A database table copied to the bucket. */
function soakFlow(i: number) {
  return {
    components: [
      { name: "rows", type: "source", connection: { id: DATABASE.id }, table: `soak_${i}` },
      { name: "lake", type: "destination", connection: { id: BUCKET.id }, path: `soak/${i}` },
    ],
    edges: [{ from: "rows", to: "lake" }],
  };
}

export const STACK: Record<ResourceKind, KindInStack> = {
  PublicKey: { count: 4, name: named("key"), args: (i, { keys }) => ({ publicKey: keys[i], name: named("key")(i) }) },
  ConnectionGroup: {
    count: 3,
    name: named("group"),
    args: (i) => ({ name: named("group")(i), description: `soak group ${i}`, connections: CONNECTIONS.slice(0, i + 1).map(({ id, type }) => ({ id, type })) }),
  },
  Cluster: { count: 2, name: named("cluster"), args: (i) => ({ name: named("cluster")(i), nodes: 1, timeoutSeconds: 600 }) },
  JobRun: {
    count: 3,
    name: named("run"),
    args: (i, { cycle }) => ({
      clusterId: RUN_CLUSTER.id,
      packageId: SHORT_PACKAGE.id,
      variables: { soak_run: named("run")(i), soak_cycle: String(cycle()) },
      timeoutSeconds: 600,
    }),
  },
  // A start years ahead: the schedule never fires during the soak, so it makes no jobs of its own.
  Schedule: {
    count: 1,
    name: named("schedule"),
    args: (i) => ({
      name: named("schedule")(i),
      startAt: "2040-01-01T02:00:00Z",
      interval: { amount: 1, unit: "days" },
      task: { packages: [{ packageId: SHORT_PACKAGE.id }] },
    }),
  },
  Hook: {
    count: 1,
    name: named("hook"),
    args: (i) => ({ type: "email", name: named("hook")(i), events: ["job.failed"], settings: { emails: ["soak@example.com"] } }),
  },
  Member: { count: 2, name: named("member"), args: (i) => ({ email: `soak-member-${i}@example.com`, role: i === 0 ? "admin" : "member" }) },
  Connection: {
    count: 2,
    name: named("connection"),
    args: (i) => ({ type: "postgres", name: named("connection")(i), host: `db-${i}.example.com`, username: "soak", password: CONNECTION_PASSWORD }),
  },
  Package: { count: 1, name: named("package"), args: (i) => ({ name: named("package")(i), dataFlow: soakFlow(i) }) },
  // Its slug given: the ledger knows the account by it, and a second create of it is refused.
  Account: {
    count: 1,
    name: named("account"),
    args: (i) => ({ name: named("account")(i), slug: named("account")(i), region: "amazon-web-services::us-east-1" }),
  },
  UserSettings: { count: 1, name: named("settings"), args: () => ({ timeZone: "Amsterdam", receiveNewsletter: false }) },
  ClusterWatcher: { count: 1, name: named("watcher"), args: () => ({ clusterId: WATCHED_CLUSTER.id }) },
  // Weekly: it runs once when the service has set it up and not again within a cycle.
  Delivery: {
    count: 1,
    name: named("delivery"),
    args: (i) => ({
      name: named("delivery")(i),
      interval: { amount: 1, unit: "weeks" },
      source: { connection: { id: DATABASE.id, type: DATABASE.type }, properties: { table: `soak_delivery_${i}` } },
      destination: { connection: { id: BUCKET.id, type: BUCKET.type }, properties: { path: `soak/delivery-${i}/` } },
    }),
  },
};

/** Resources the stack declares, all kinds together. */
export const STACK_SIZE = RESOURCE_KINDS.reduce((sum, kind) => sum + STACK[kind].count, 0);

export function freshKeys(): string[] {
  return Array.from({ length: STACK.PublicKey.count }, (_, i) => freshEd25519Key(`soak-${i}`));
}

export function soakProgram(surface: Surface, inputs: StackInputs) {
  return async () => {
    for (const kind of RESOURCE_KINDS) {
      const { count, name, args } = STACK[kind];
      for (let i = 0; i < count; i++) declareOn(surface, kind, name(i), args(i, inputs));
    }
  };
}
