import type { DataFlow } from "../../../contract/data-flow";
import type { JOB_RUN_OUTCOMES, PackageStatus } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import { webAppUrl } from "../../routing";
import { defineTable, type Row, type Store } from "../../store";

/**
 * Packages: made through the API (facts, "Packages": create, update, archive, export) with a
 * data flow (`contract/data-flow.ts`), or seeded by the fixtures. A package of the fixtures may
 * say how every job of it behaves (`run`); a job of a package with a flow runs the flow
 * (`runs.ts`). Neither is ever part of a response.
 */

export const FLOW_TYPES = ["dataflow", "workflow"] as const;
export type FlowType = (typeof FLOW_TYPES)[number];

export const PACKAGE_DEFAULTS = { name: "Untitled package", flowType: "dataflow", flowVersion: "2.0.0", packageVersion: "1.0" } as const;

/** How every job of a package runs: for how long, to which end, with which outputs (a fixture's `run`, or its flow's). */
export interface PackageRun {
  seconds: number;
  outcome: (typeof JOB_RUN_OUTCOMES)[number];
  error?: string | undefined;
  outputs: PackageRunOutput[];
}

export interface PackageRunOutput {
  name: string;
  records: number;
  component?: { name: string; type: string; fields: string[] } | undefined;
}

export interface PackageRow extends Row {
  name: string;
  description: string;
  variables: Record<string, string>;
  ownerId: number;
  status: PackageStatus;
  /** Fixture packages of older state files have none of the fields below: read them through `versions`. */
  flowType?: FlowType;
  /** The flow as last sent; null for a fixture package, which runs by `run`. */
  dataFlow?: DataFlow | null;
  /** 1 when made, one more for each update. */
  version?: number;
  flowVersion?: string;
  packageVersion?: string;
  run?: PackageRun;
  createdAt: string;
  updatedAt: string;
}

export const PACKAGES = defineTable<PackageRow>("packages");

export interface NewPackage {
  accountId: number;
  ownerId: number;
  name: string;
  description: string;
  variables: Record<string, string>;
  flowType: FlowType;
  flowVersion: string;
  dataFlow: DataFlow | null;
  /** Default 1.0. */
  packageVersion?: string;
  run?: PackageRun;
}

export function insertPackage(store: Store, fields: NewPackage): PackageRow {
  const now = isoTime(store.clock.now());
  const { run, packageVersion, ...rest } = fields;
  return store.insert(PACKAGES, {
    ...rest,
    status: "active",
    version: 1,
    packageVersion: packageVersion ?? PACKAGE_DEFAULTS.packageVersion,
    createdAt: now,
    updatedAt: now,
    ...(run === undefined ? {} : { run }),
  });
}

/**
 * A deleted connection invalidates every package whose flow uses it (facts: a connection's delete
 * "invalidates every item that references it"): the package's `updated_at` moves, so a client
 * comparing it sees the package changed, and its next validation fails naming the connection.
 */
export function invalidatePackagesUsing(store: Store, deleted: { accountId: number; id: number }, atMs: number): void {
  for (const pkg of store.list(PACKAGES, deleted.accountId)) {
    const uses = pkg.dataFlow?.components.some((component) => component.connection?.id === deleted.id) ?? false;
    if (pkg.status === "active" && uses) store.update(PACKAGES, pkg, { updatedAt: changedAt(pkg, atMs) });
  }
}

/** A change's `updated_at`: its time, and always later than the last change's, so that every change shows. */
export function changedAt(pkg: PackageRow, atMs: number): string {
  return isoTime(Math.max(atMs, Date.parse(pkg.updatedAt) + 1));
}

/** The service's delete of a package: archived, still readable; archiving again changes nothing. */
export function archive(store: Store, pkg: PackageRow, at: string): void {
  if (pkg.status !== "archived") store.update(PACKAGES, pkg, { status: "archived", updatedAt: at });
}

/** What a package reads as, whatever state file it came from; its item in the web application is derived from its place. */
export function versions(pkg: PackageRow): Required<Pick<PackageRow, "flowType" | "version" | "flowVersion" | "packageVersion">> & { itemId: string } {
  return {
    flowType: pkg.flowType ?? PACKAGE_DEFAULTS.flowType,
    version: pkg.version ?? 1,
    flowVersion: pkg.flowVersion ?? PACKAGE_DEFAULTS.flowVersion,
    packageVersion: pkg.packageVersion ?? PACKAGE_DEFAULTS.packageVersion,
    itemId: `pkg-${pkg.accountId}-${pkg.id}`,
  };
}

/** The service's JSON for a package (spec 2.4; get-by-id adds the versions and the item, facts "Packages"). */
export function packageJson(pkg: PackageRow, baseUrl: string, detail = false): Record<string, unknown> {
  const v = versions(pkg);
  return {
    id: pkg.id,
    name: pkg.name,
    description: pkg.description,
    variables: pkg.variables,
    flow_type: v.flowType,
    owner_id: pkg.ownerId,
    created_at: pkg.createdAt,
    updated_at: pkg.updatedAt,
    url: `${baseUrl}/packages/${pkg.id}`,
    html_url: `${webAppUrl(baseUrl)}/packages/${pkg.id}`,
    status: pkg.status,
    ...(detail ? { version: v.version, flow_version: v.flowVersion, package_version: v.packageVersion, item_id: v.itemId } : {}),
  };
}

/**
 * The export document (facts, "Packages"): the package's flow and metadata, in the create body's
 * own fields, so it can be posted as-is to `POST /packages` of any account.
 */
export function packageExport(pkg: PackageRow): Record<string, unknown> {
  const v = versions(pkg);
  return {
    name: pkg.name,
    description: pkg.description,
    variables: pkg.variables,
    flow_type: v.flowType,
    flow_version: v.flowVersion,
    package_version: v.packageVersion,
    data_flow_json: pkg.dataFlow ?? { components: [], edges: [] },
  };
}
