/**
 * An account as teams bring it: `count` objects of every kind that is set up rather than run
 * (users as members, keys, connections of five types, groups, packages with flows and a few
 * without, schedules, hooks of every type, enabled deliveries), made through the
 * emulator's fixtures. A few names repeat, as they do in accounts made by hand.
 */
import { TEST_USER_ID, type TestEmulatorOptions } from "./service";
import { ed25519PublicKeyLine } from "./keys";

const TYPES = ["postgres", "mysql", "s3", "salesforce", "redshift"] as const;
const HOOKS = ["web", "slack", "email", "hipchat", "pagerduty"] as const;

/** The clusters of the account its API key's user (the emulator's test user) watches. */
export const WATCHED_CLUSTERS = 3;

const range = (count: number) => Array.from({ length: count }, (_, i) => i);

function connectionAttributes(type: (typeof TYPES)[number], i: number): Record<string, unknown> {
  const credentials = { username: `loader${i}`, password: `pw-${i}` };
  switch (type) {
    case "postgres":
    case "mysql":
      return { ...credentials, host: `db${i}.example.com`, database: `analytics${i}` };
    case "redshift":
      return { ...credentials, host: `wh${i}.example.com`, region: "us-east-1", database: "dw" };
    case "s3":
      return { ...credentials, region: i % 2 === 0 ? "us-east-1" : "eu-west-1" };
    case "salesforce":
      return { password: `token-${i}`, environment: i % 2 === 0 ? "production" : "sandbox" };
  }
}

function hookOf(type: (typeof HOOKS)[number], i: number) {
  const events: Array<"job.failed" | "job.completed" | "cluster"> = i % 2 === 0 ? ["job.failed"] : ["job.completed", "cluster"];
  switch (type) {
    case "web":
      return {
        type,
        events,
        settings:
          i % 10 === 0
            ? { url: `https://hooks${i}.example.com/etl`, basic_auth: true, basic_auth_data: Buffer.from(`u${i}:p${i}`).toString("base64") }
            : { url: `https://hooks${i}.example.com/etl` },
      };
    case "slack":
      return { type, events, settings: { url: `https://hooks.slack.com/services/T${i}/B${i}/x${i}`, channel: `#etl-${i}` } };
    case "email":
      return { type, name: `mail ${i}`, events, settings: { emails: `ops${i}@example.com,data${i}@example.com` } };
    case "hipchat":
      return { type, events, settings: { room: `room-${i}`, auth_token: `hip-${i}` } };
    case "pagerduty":
      return { type, events, settings: { pd_account: `acct${i}`, service_name: `etl ${i}`, service_key: `pd-${i}` } };
  }
}

export interface LargeAccount extends Pick<TestEmulatorOptions, "account" | "users"> {
  /** Each public key's line by its id: what a user keeps in the key's `.pub` file. */
  keyLines: Record<string, string>;
}

export function largeAccount(count: number): LargeAccount {
  const keyLines = Object.fromEntries(range(count).map((i) => [String(2000 + i), ed25519PublicKeyLine(`key${i}@example.com`).line]));
  const connectionId = (i: number) => 3000 + i;
  const ofType = (type: string) =>
    range(count)
      .filter((i) => TYPES[i % TYPES.length] === type)
      .map(connectionId);
  const databases = ofType("postgres");
  const sources = ofType("salesforce");
  const destinations = ofType("redshift");
  const packageId = (i: number) => 5000 + i;
  return {
    keyLines,
    users: range(count + 1).map((i) => ({
      id: 1000 + i,
      name: `Person ${i}`,
      email: `person${i}@example.com`,
      apiKey: `person-key-${i}`,
      role: i % 3 === 0 ? "admin" : "member",
    })),
    account: {
      // Clusters are not set up by hand: a few, made by a colleague, which the API key's user watches.
      clusters: range(WATCHED_CLUSTERS).map((i) => ({ id: 9000 + i, name: `shared ${i}`, nodes: 1, ownerId: 1000, watcherIds: [TEST_USER_ID] })),
      publicKeys: range(count).map((i) => ({ id: 2000 + i, name: i % 25 === 7 ? "laptop" : `deploy key ${i}`, publicKey: keyLines[String(2000 + i)]! })),
      connections: range(count).map((i) => {
        const type = TYPES[i % TYPES.length]!;
        return { id: connectionId(i), type, name: i % 30 === 4 ? "warehouse" : `${type} ${i}`, attributes: connectionAttributes(type, i) };
      }),
      connectionGroups: range(count).map((i) => ({
        name: `group ${i}`,
        description: i % 2 === 0 ? `curated ${i}` : null,
        connectionIds: [databases[i % databases.length]!, databases[(i + 1) % databases.length]!].filter((id, j, all) => all.indexOf(id) === j),
      })),
      packages: range(count).map((i) => ({
        id: packageId(i),
        name: `Orders rollup #${i}`,
        description: i % 2 === 0 ? `nightly rollup ${i}` : "",
        variables: { region: i % 2 === 0 ? "eu" : "us" },
        // Now and then one still without a flow, as the web application makes a package first.
        dataFlow:
          i % 50 === 3
            ? { components: [], edges: [] }
            : {
                components: [
                  { name: "orders", type: "source", connection: { id: databases[i % databases.length]! }, table: `orders_${i}` },
                  { name: "recent", type: "filter", condition: "region = '${region}'" },
                  { name: "warehouse", type: "destination", connection: { id: databases[(i + 1) % databases.length]! }, table: `rollup_${i}` },
                ],
                edges: [
                  { from: "orders", to: "recent" },
                  { from: "recent", to: "warehouse" },
                ],
              },
      })),
      schedules: range(count).map((i) => ({
        name: `nightly ${i}`,
        status: i % 4 === 0 ? ("disabled" as const) : ("enabled" as const),
        startAt: "2030-01-01T02:00:00Z",
        intervalAmount: 1 + (i % 6),
        intervalUnit: "days" as const,
        task: { nodes: 2 + (i % 3), packages: [{ packageId: packageId(i), variables: { region: "'eu'" } }] },
      })),
      hooks: range(count).map((i) => hookOf(HOOKS[i % HOOKS.length]!, i)),
      deliveries: range(count).map((i) => ({
        name: `crm to warehouse ${i}`,
        status: "enabled" as const,
        intervalAmount: 6,
        intervalUnit: "hours" as const,
        source: { connectionId: sources[i % sources.length]!, properties: { object: i % 2 === 0 ? "Contact" : "Account" } },
        destination: { connectionId: destinations[i % destinations.length]!, properties: { schema: `crm_${i}` } },
      })),
    },
  };
}
