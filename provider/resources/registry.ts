/**
 * The one list of resource kinds, each declared in its own folder (`<kind>/declaration.ts`).
 * Everything that names kinds derives from it: the package's classes, the dynamic providers'
 * dispatch (`providerFor`), the plugin's schema and dispatch, `etl-export`, `etl-recover`, the
 * reference docs, and the tests' and the benchmark's kind tables. Adding a kind is its import,
 * its place in the list and its export here.
 */
import { accountDeclaration } from "./account/declaration";
import { clusterDeclaration } from "./cluster/declaration";
import { clusterWatcherDeclaration } from "./cluster-watcher/declaration";
import { connectionGroupDeclaration } from "./connection-group/declaration";
import { connectionDeclaration } from "./connection/declaration";
import { deliveryDeclaration } from "./delivery/declaration";
import { hookDeclaration } from "./hook/declaration";
import { jobRunDeclaration } from "./job-run/declaration";
import { memberDeclaration } from "./member/declaration";
import { packageDeclaration } from "./package/declaration";
import { publicKeyDeclaration } from "./public-key/declaration";
import { scheduleDeclaration } from "./schedule/declaration";
import { userSettingsDeclaration } from "./user-settings/declaration";
import type { ResourceDeclaration } from "./shared/declaration";
import type { ResourceInput } from "./shared/references";

export type { ResourceDeclaration } from "./shared/declaration";

/** What programs use of each kind: its class and its types. */
export * from "./account/declaration";
export * from "./cluster/declaration";
export * from "./cluster-watcher/declaration";
export * from "./connection-group/declaration";
export * from "./connection/declaration";
export * from "./delivery/declaration";
export * from "./hook/declaration";
export * from "./job-run/declaration";
export * from "./member/declaration";
export * from "./package/declaration";
export * from "./public-key/declaration";
export * from "./schedule/declaration";
export * from "./user-settings/declaration";

const DECLARATIONS = [
  publicKeyDeclaration,
  connectionGroupDeclaration,
  clusterDeclaration,
  jobRunDeclaration,
  scheduleDeclaration,
  hookDeclaration,
  memberDeclaration,
  connectionDeclaration,
  packageDeclaration,
  deliveryDeclaration,
  accountDeclaration,
  userSettingsDeclaration,
  clusterWatcherDeclaration,
] as const satisfies readonly ResourceDeclaration[];

type Declared = (typeof DECLARATIONS)[number];

export type ResourceKind = Declared["kind"];

/** Each kind's declaration by its name. */
export const RESOURCES = Object.fromEntries(DECLARATIONS.map((declaration) => [declaration.kind, declaration])) as {
  [K in ResourceKind]: Extract<Declared, { kind: K }>;
};

export const RESOURCE_KINDS: ResourceKind[] = DECLARATIONS.map((declaration) => declaration.kind);

/** The kinds the service holds one of for an API key: a provider (a program, on the dynamic resources) declares one at most. */
export const SINGLETON_KINDS: ResourceKind[] = DECLARATIONS.filter((declaration: ResourceDeclaration) => declaration.singleton).map(
  (declaration) => declaration.kind,
);

/** Each kind's implementation, as the dynamic providers and the plugin dispatch to it. */
export const IMPLEMENTATIONS = Object.fromEntries(DECLARATIONS.map((declaration) => [declaration.kind, declaration.implementation])) as {
  [K in ResourceKind]: Extract<Declared, { kind: K }>["implementation"];
};

/** Where each kind's inputs take another resource (`resourceInputs` of its declaration). */
export const RESOURCE_INPUTS: Readonly<Record<string, readonly ResourceInput[]>> = Object.fromEntries(
  DECLARATIONS.map((declaration: ResourceDeclaration) => [declaration.kind, declaration.resourceInputs ?? []]),
);
