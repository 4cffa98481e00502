/**
 * What the emulator holds before the soak, which the soak's resources refer to, and the
 * password its connections are given.
 */

/** The soak's connections' password: like the API key, it may appear in no file and no output. */
export const CONNECTION_PASSWORD = "soak-connection-SECRET-pw";

export const RUN_CLUSTER = { id: 201, name: "soak-runner", type: "production" as const, nodes: 4, terminateOnIdle: false };
export const SHORT_PACKAGE = { id: 101, name: "soak-short", run: { seconds: 3, outcome: "completed" as const, outputs: [{ name: "out", records: 10 }] } };
export const CONNECTIONS = [
  { id: 301, name: "pg", type: "postgres" },
  { id: 302, name: "my", type: "mysql" },
  { id: 303, name: "bucket", type: "s3" },
];
export const [DATABASE, , BUCKET] = CONNECTIONS as [(typeof CONNECTIONS)[number], unknown, (typeof CONNECTIONS)[number]];

/** A cluster another user made: the stack's user watches it only through the stack's watcher. */
export const WATCHED_CLUSTER = { id: 202, name: "soak-watched", nodes: 1, ownerId: 9 };

export const SOAK_ACCOUNT = { packages: [SHORT_PACKAGE], clusters: [RUN_CLUSTER, WATCHED_CLUSTER], connections: CONNECTIONS };
