/**
 * The one list of resource kinds. Everything that names kinds derives from it: the dynamic
 * providers' dispatch (`providerFor`), the plugin's schema and dispatch, and the tests' and the
 * benchmark's kind lists. The kind names are stored in every stack's state (the type tokens
 * `pulumi-nodejs:dynamic/etl:<Kind>` and `etl:index:<Kind>`, and the one-line provider), so never
 * renamed.
 */
import type { z } from "zod";
import { clusterRecord } from "../api/clusters";
import { connectionGroupRecord } from "../api/connection-groups";
import { connectionSettingsRecord } from "../api/connections";
import { deliveryRecord } from "../api/deliveries";
import { hookRecord } from "../api/hooks";
import { jobRecord } from "../api/jobs";
import { memberRecord } from "../api/members";
import { packageStateRecord } from "../api/packages";
import { scheduleRecord } from "../api/schedules";
import { fields as clusterFields } from "./cluster/fields";
import { clusterProvider } from "./cluster/provider";
import { fields as connectionGroupFields } from "./connection-group/fields";
import { connectionGroupProvider } from "./connection-group/provider";
import { SECRET_ATTRIBUTES } from "./connection/attributes";
import { fields as connectionFields } from "./connection/fields";
import { connectionProvider } from "./connection/provider";
import { fields as deliveryFields } from "./delivery/fields";
import { deliveryProvider } from "./delivery/provider";
import { fields as hookFields } from "./hook/fields";
import { hookProvider } from "./hook/provider";
import { fields as jobRunFields } from "./job-run/fields";
import { jobRunProvider } from "./job-run/provider";
import { fields as memberFields } from "./member/fields";
import { memberProvider } from "./member/provider";
import { fields as packageFields } from "./package/fields";
import { packageProvider } from "./package/provider";
import { fields as publicKeyFields, publicKeyState } from "./public-key/fields";
import { publicKeyProvider } from "./public-key/provider";
import { fields as scheduleFields } from "./schedule/fields";
import { scheduleProvider } from "./schedule/provider";
import { publicKeyExport } from "./public-key/export";
import { connectionGroupExport } from "./connection-group/export";
import { scheduleExport } from "./schedule/export";
import { hookExport } from "./hook/export";
import { memberExport } from "./member/export";
import { connectionExport } from "./connection/export";
import { packageExport } from "./package/export";
import { deliveryExport } from "./delivery/export";
import { publicKeyRecover } from "./public-key/recover";
import { connectionGroupRecover } from "./connection-group/recover";
import { clusterRecover } from "./cluster/recover";
import { jobRunRecover } from "./job-run/recover";
import { scheduleRecover } from "./schedule/recover";
import { hookRecover } from "./hook/recover";
import { memberRecover } from "./member/recover";
import { connectionRecover } from "./connection/recover";
import { packageRecover } from "./package/recover";
import { deliveryRecover } from "./delivery/recover";
import type { ExportDeclaration, RuntimeKind } from "./shared/exported";
import type { FieldTable } from "./shared/fields";
import type { ResourceImplementation } from "./shared/implementation";
import type { RecoverDeclaration } from "./shared/recovery";

export interface ResourceDeclaration {
  /** What the resource is, for its reference page and the SDKs. */
  description: string;
  provider: ResourceImplementation<unknown, unknown>;
  fields: {
    table: FieldTable<never>;
    outputNames: readonly string[];
    /** What an import by id alone rebuilds from the record: the outputs, and the inputs that make them. */
    readResult(id: string, record: never, props: never): { inputs?: object };
  };
  /** The service's record: the types of the outputs read from it. */
  record: z.ZodType;
  /** Inputs, and the outputs of the same names, kept only encrypted. */
  secrets: readonly string[];
  /** A replacement deletes the old object first (a name or key the service holds once). */
  deleteBeforeReplace?: boolean;
  /**
   * Inputs for the reference page's example (`{ secretConfig }`: a secret of the stack's
   * configuration); they pass `check`. The examples describe one account (connection 301 is a
   * postgres database, 302 a redshift warehouse, 306 a salesforce account; package 101, cluster
   * 201), which the benchmark's local service holds, so it measures every kind from its example:
   * one made many times must stay as made (a cluster that ends itself when idle would not).
   */
  example: Record<string, unknown>;
  /** How `etl-export` writes the kind's objects into a program, or why it leaves them out. */
  export: ExportDeclaration | RuntimeKind;
  /** How `etl-recover` finds the object a killed deployment's create made. */
  recover: RecoverDeclaration;
}

export const RESOURCES = {
  PublicKey: {
    description: "An SSH public key of the API user, used to reach cluster machines. The service holds a key once, so a replacement deletes the old key first.",
    provider: publicKeyProvider,
    recover: publicKeyRecover,
    export: publicKeyExport,
    fields: publicKeyFields,
    record: publicKeyState,
    secrets: [],
    deleteBeforeReplace: true,
    example: { publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH deploy@ci", name: "deploy key" },
  },
  ConnectionGroup: {
    description: "A named set of the account's connections. A replacement deletes the old group first: the account allows a name once.",
    provider: connectionGroupProvider,
    recover: connectionGroupRecover,
    export: connectionGroupExport,
    fields: connectionGroupFields,
    record: connectionGroupRecord,
    secrets: [],
    deleteBeforeReplace: true,
    example: { name: "analytics-warehouses", description: "Curated destinations", connections: [{ id: 301, type: "postgres" }] },
  },
  Cluster: {
    description: "Compute that jobs run on; `up` waits until it can run them.",
    provider: clusterProvider,
    recover: clusterRecover,
    export: { runtime: "compute that runs jobs: made and ended by schedules, deliveries and runs, not set up by hand" },
    fields: clusterFields,
    record: clusterRecord,
    secrets: [],
    example: { nodes: 2, name: "analytics", description: "Runs the nightly rollups" },
  },
  JobRun: {
    description: "One run of a package on a cluster; `up` waits until it finishes.",
    provider: jobRunProvider,
    recover: jobRunRecover,
    export: { runtime: "one run of a package: a record of what ran, not set-up" },
    fields: jobRunFields,
    record: jobRecord,
    secrets: [],
    example: { clusterId: 201, packageId: 101, variables: { run_date: "2026-11-20" } },
  },
  Schedule: {
    description: "Runs a package on a cluster at set times.",
    provider: scheduleProvider,
    recover: scheduleRecover,
    export: scheduleExport,
    fields: scheduleFields,
    record: scheduleRecord,
    secrets: [],
    example: { name: "nightly orders rollup", startAt: "2030-01-01T02:00:00Z", interval: { amount: 1, unit: "days" }, task: { nodes: 2, packages: [{ packageId: 101 }] } },
  },
  Hook: {
    description: "Tells a web address, Slack, email, HipChat or PagerDuty of job and cluster events. `settings` and `salt` are kept encrypted.",
    provider: hookProvider,
    recover: hookRecover,
    export: hookExport,
    fields: hookFields,
    record: hookRecord,
    secrets: ["settings", "salt"],
    example: { type: "web", name: "failed jobs", events: ["job.failed"], settings: { url: "https://alerts.example.com/etl" } },
  },
  Member: {
    description: "A person's membership of the account, with a role. A replacement removes the old membership first: the account holds an email once.",
    provider: memberProvider,
    recover: memberRecover,
    export: memberExport,
    fields: memberFields,
    record: memberRecord,
    secrets: [],
    deleteBeforeReplace: true,
    example: { email: "ana@example.com", role: "admin" },
  },
  Connection: {
    description: "The settings by which the service reaches a database, warehouse, bucket or service. Passwords, keys and tokens are kept encrypted and never printed.",
    provider: connectionProvider,
    recover: connectionRecover,
    export: connectionExport,
    fields: connectionFields,
    record: connectionSettingsRecord,
    secrets: SECRET_ATTRIBUTES,
    example: { type: "postgres", name: "warehouse", host: "db.example.com", database: "analytics", username: "etl_loader", password: { secretConfig: "warehousePassword" } },
  },
  Package: {
    description:
      "A data flow the service runs. Validated after each change unless `validate` is false: an invalid package fails `up` with each broken rule named and stays in the stack. Destroy archives it, as the service's delete does.",
    provider: packageProvider,
    recover: packageRecover,
    export: packageExport,
    fields: packageFields,
    record: packageStateRecord,
    secrets: [],
    example: {
      name: "orders to warehouse",
      variables: { since: "2026-01-01" },
      dataFlow: {
        components: [
          { name: "orders", type: "source", connection: { id: 301 }, table: "orders" },
          { name: "recent", type: "filter", condition: "created_at > '${since}'" },
          { name: "warehouse", type: "destination", connection: { id: 302 }, table: "recent_orders" },
        ],
        edges: [
          { from: "orders", to: "recent" },
          { from: "recent", to: "warehouse" },
        ],
      },
    },
  },
  Delivery: {
    description: "A source connection delivered into a destination connection every interval, through a pipeline the service sets up; `up` waits until it is enabled. The service cannot change a delivery, so any change replaces it.",
    provider: deliveryProvider,
    recover: deliveryRecover,
    export: deliveryExport,
    fields: deliveryFields,
    record: deliveryRecord,
    secrets: [],
    example: {
      name: "crm to warehouse",
      interval: { amount: 6, unit: "hours" },
      source: { connection: { id: 306, type: "salesforce" }, properties: { object: "Contact" } },
      destination: { connection: { id: 302, type: "redshift" }, properties: { schema: "crm" } },
    },
  },
} as const satisfies Record<string, ResourceDeclaration>;

export type ResourceKind = keyof typeof RESOURCES;

export const RESOURCE_KINDS = Object.keys(RESOURCES) as ResourceKind[];

/** Each kind's provider object, as the dynamic providers and the plugin dispatch to it. */
export const PROVIDERS = Object.fromEntries(RESOURCE_KINDS.map((kind) => [kind, RESOURCES[kind].provider])) as {
  [K in ResourceKind]: (typeof RESOURCES)[K]["provider"];
};
