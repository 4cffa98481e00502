import { VALIDATION_STATUSES } from "../../../contract/vocabularies";
import { invalid } from "../../body";
import { notFound, sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { readStatusFilter, readTimeFilter } from "../../query";
import { findOwnRow, parseId, type ApiContext, type Route } from "../../routing";
import { sortRecords, type SortKeys } from "../../sorting";
import { PACKAGES, type PackageRow } from "./model";
import { finishValidation, insertValidation, PACKAGE_VALIDATIONS, validationJson, type PackageValidationRow } from "./validations";

/** A package's validations (facts, "Package validations"): asynchronous, synchronous, one, all. */

const sortKeys: SortKeys<PackageValidationRow> = {
  created: (validation) => validation.createdAt,
  updated: (validation) => validation.updatedAt,
};

/** An archived package no longer runs, so there is nothing to validate. */
function activePackage(ctx: ApiContext): PackageRow {
  const pkg = findOwnRow(ctx, PACKAGES);
  if (pkg.status !== "active") throw invalid([`package ${pkg.id} is ${pkg.status}: only active packages can be validated`]);
  return pkg;
}

/** 201 while it runs; the lifecycle ends it. */
function createValidation(ctx: ApiContext): void {
  const pkg = activePackage(ctx);
  const validation = insertValidation(ctx.store, ctx.caller.account.id, pkg.id, ctx.caller.user.id);
  sendJson(ctx.res, 201, validationJson(validation, ctx.baseUrl));
}

/** The synchronous form: the validation in its final state, at once. */
function validateNow(ctx: ApiContext): void {
  const pkg = activePackage(ctx);
  const validation = insertValidation(ctx.store, ctx.caller.account.id, pkg.id, ctx.caller.user.id);
  finishValidation(ctx.store, validation, ctx.store.clock.now());
  sendJson(ctx.res, 200, validationJson(validation, ctx.baseUrl));
}

function listValidations(ctx: ApiContext): void {
  const pkg = findOwnRow(ctx, PACKAGES);
  const status = readStatusFilter(ctx.query, VALIDATION_STATUSES);
  const since = readTimeFilter(ctx.query, "since");
  const validations = ctx.store
    .list(PACKAGE_VALIDATIONS, ctx.caller.account.id)
    .filter((v) => v.packageId === pkg.id && (status === undefined || v.status === status) && (since === undefined || Date.parse(v.updatedAt) >= since));
  sendPage(ctx, sortRecords(validations, ctx.query, sortKeys, "desc"), (v) => validationJson(v, ctx.baseUrl));
}

function getValidation(ctx: ApiContext): void {
  const pkg = findOwnRow(ctx, PACKAGES);
  const validation = ctx.store.find(PACKAGE_VALIDATIONS, ctx.caller.account.id, parseId(ctx.params[1]));
  if (validation?.packageId !== pkg.id) throw notFound();
  sendJson(ctx.res, 200, validationJson(validation, ctx.baseUrl));
}

export const validationRoutes: readonly Route[] = [
  { pattern: /^\/packages\/([^/]+)\/validations$/, methods: { GET: listValidations, POST: createValidation } },
  { pattern: /^\/packages\/([^/]+)\/validate$/, methods: { POST: validateNow } },
  { pattern: /^\/packages\/([^/]+)\/validations\/([^/]+)$/, methods: { GET: getValidation } },
];
