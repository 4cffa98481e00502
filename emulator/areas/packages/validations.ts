import { dataFlowErrors, type FlowError } from "../../../contract/data-flow";
import type { ValidationStatus } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import { defineTable, type Row, type Store } from "../../store";
import { connectionFacts } from "../connections/interface";
import { PACKAGES, type PackageRow } from "./model";

/**
 * Package validations (facts, "Package validations"): a check of one package's flow by the rules
 * of `contract/data-flow.ts`, against the account as it is when the check ends. A package of the
 * fixtures without a flow stands for one whose flow is not modelled: it is valid. A package made
 * through the API without a flow has an empty one, which fails: the flow has no components.
 */
export interface PackageValidationRow extends Row {
  packageId: number;
  ownerId?: number;
  status: ValidationStatus;
  errors: ValidationError[];
  statusMessage?: string | null;
  /** Simulated seconds the check took, once it ended. */
  runtime?: number | null;
  /** When the validation entered its status: its lifecycle is timed from here. */
  statusSince: string;
  createdAt: string;
  updatedAt: string;
}

/** Each error names the rule and, when one is at fault, the component, beside the message the facts list. */
export type ValidationError = { message: string } & Partial<Omit<FlowError, "message">>;

export const PACKAGE_VALIDATIONS = defineTable<PackageValidationRow>("packageValidations");

function flowErrorsOf(store: Store, pkg: PackageRow): FlowError[] {
  if (pkg.dataFlow === undefined || pkg.dataFlow === null) return [];
  return dataFlowErrors(pkg.dataFlow, pkg.variables, (id) => connectionFacts(store, pkg.accountId, id)?.kind);
}

/** Ends the validation now: completed when the flow breaks no rule, else failed with every rule it breaks. */
export function finishValidation(store: Store, validation: PackageValidationRow, atMs: number): void {
  const pkg = store.find(PACKAGES, validation.accountId, validation.packageId);
  const errors = pkg === undefined ? [{ message: "the package no longer exists" }] : flowErrorsOf(store, pkg);
  const time = isoTime(atMs);
  const failed = errors.length > 0;
  store.update(PACKAGE_VALIDATIONS, validation, {
    status: failed ? "failed" : "completed",
    errors,
    statusMessage: failed ? errors[0]!.message : "The package is valid.",
    runtime: Math.round((atMs - Date.parse(validation.statusSince)) / 1000),
    statusSince: time,
    updatedAt: time,
  });
}

export function insertValidation(store: Store, accountId: number, packageId: number, ownerId: number): PackageValidationRow {
  const now = isoTime(store.clock.now());
  return store.insert(PACKAGE_VALIDATIONS, {
    accountId,
    packageId,
    ownerId,
    status: "running",
    errors: [],
    statusMessage: null,
    runtime: null,
    statusSince: now,
    createdAt: now,
    updatedAt: now,
  });
}

export function validationJson(validation: PackageValidationRow, baseUrl: string): Record<string, unknown> {
  return {
    id: validation.id,
    package_id: validation.packageId,
    owner_id: validation.ownerId ?? null,
    account_id: validation.accountId,
    status: validation.status,
    status_message: validation.statusMessage ?? null,
    runtime: validation.runtime ?? null,
    errors: validation.errors,
    created_at: validation.createdAt,
    updated_at: validation.updatedAt,
    url: `${baseUrl}/packages/${validation.packageId}/validations/${validation.id}`,
  };
}
