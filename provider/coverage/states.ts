/**
 * The resources of the stacks' states that hold objects of the scanned account, on both
 * surfaces (`etl:index:<Kind>`, `pulumi-nodejs:dynamic/etl:<Kind>`), a Pipeline's children
 * among them. A plugin resource's account is its provider's `accountId` as the state records
 * it (an explicit provider's input, or the stack's `etl:accountId` a default provider was given);
 * a dynamic resource's, and a provider's that records none, is the stack's own account: its
 * configuration, else `ETL_ACCOUNT_ID`. Resources read with `get` (external), replaced ones
 * waiting for their delete, and job runs and accounts hold nothing of the account's set-up.
 */
import { kindOfType, type Deployment, type StateResource } from "../recover/state";
import type { Claim } from "./report";
import { COVERAGE_KINDS } from "./scan";

/** An account's address as a provider's settings give it; `apiUrl` compared when both sides know it. */
export interface AccountAddress {
  accountId: string;
  apiUrl?: string;
}

export interface StackState {
  /** `project/stack` as the state's urns say, or how the command was told of it. */
  label: string;
  deployment: Deployment;
  /** The stack's own settings: its default providers' and the dynamic resources' account, when the state does not record it. */
  account: Partial<AccountAddress>;
}

/** What a state holds that the report counts, and what it could not place. */
export interface StateClaims {
  claims: Claim[];
  /** Resources whose provider's account the state holds only as a secret: not counted. */
  unreadable: number;
}

const DEFAULT_PROVIDER = /^default(_\d+_\d+_\d+.*)?$/;

/** `urn:pulumi:<stack>::<project>::…` → `project/stack`, from the first resource. */
export function stackLabel(deployment: Deployment, fallback: string): string {
  const urn = deployment.deployment.resources?.[0]?.urn;
  if (urn === undefined) return fallback;
  const [head, project] = urn.split("::");
  return `${project}/${head!.split(":").pop()}`;
}

/** A recorded setting: a plain string, or undefined when it is absent or a secret the export kept encrypted. */
function plainText(value: unknown): string | undefined | "secret" {
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object") return "secret";
  return undefined;
}

function sameUrl(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return true;
  return a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}

/** The account a resource's objects live in, or "secret" when the state keeps it unreadable. */
function accountOf(resource: StateResource, providers: Map<string, StateResource>, stack: Partial<AccountAddress>): Partial<AccountAddress> | "secret" {
  if (!resource.type.startsWith("etl:index:")) return stack;
  const reference = typeof resource.provider === "string" ? resource.provider : "";
  const urn = reference.slice(0, Math.max(0, reference.lastIndexOf("::")));
  const provider = providers.get(urn);
  if (provider === undefined) return stack;
  const inputs = provider.inputs ?? {};
  const accountId = plainText(inputs.accountId);
  const apiUrl = plainText(inputs.apiUrl);
  if (accountId === "secret" || apiUrl === "secret") return "secret";
  const isDefault = DEFAULT_PROVIDER.test(urn.split("::").pop() ?? "");
  // A provider left without a setting takes the environment, as the stack's defaults do.
  const fallback = isDefault ? stack : { accountId: process.env.ETL_ACCOUNT_ID || undefined, apiUrl: process.env.ETL_API_URL || undefined };
  return { accountId: accountId ?? fallback.accountId, apiUrl: apiUrl ?? fallback.apiUrl };
}

/** The objects a resource's user is: a user's settings and watches are seen only for the API key's user. */
function isOtherUsers(kind: string, resource: StateResource, userId: string | undefined): boolean {
  if (userId === undefined) return false;
  if (kind === "UserSettings") return resource.id !== userId;
  const watcher = resource.outputs?.userId;
  return kind === "ClusterWatcher" && watcher !== undefined && String(watcher) !== userId;
}

function holdsSetUp(resource: StateResource): boolean {
  return resource.custom !== false && resource.external !== true && resource.delete !== true && typeof resource.id === "string" && resource.id !== "";
}

/** The state's resources holding objects of `account`; `userId` is the API key's user. */
export function claimsOf(state: StackState, account: AccountAddress, userId: string | undefined): StateClaims {
  const resources = state.deployment.deployment.resources ?? [];
  const providers = new Map(resources.filter((resource) => resource.type === "pulumi:providers:etl").map((resource) => [resource.urn, resource]));
  const claims: Claim[] = [];
  let unreadable = 0;
  for (const resource of resources) {
    const kind = kindOfType(resource.type);
    if (kind === undefined || !(COVERAGE_KINDS as string[]).includes(kind) || !holdsSetUp(resource)) continue;
    const where = accountOf(resource, providers, state.account);
    if (where === "secret") {
      unreadable += 1;
      continue;
    }
    if (where.accountId !== account.accountId || !sameUrl(where.apiUrl, account.apiUrl)) continue;
    if (isOtherUsers(kind, resource, userId)) continue;
    const name = resource.outputs?.name;
    claims.push({ kind, id: resource.id!, urn: resource.urn, stack: state.label, ...(typeof name === "string" ? { name } : {}) });
  }
  return { claims, unreadable };
}
