import { invalid } from "../../body";
import { notFound, sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { findOwnRow, parseId, type ApiContext, type Route } from "../../routing";
import { sortRecords, type SortKeys } from "../../sorting";
import { PACKAGES, packageJson, type PackageRow } from "./model";
import { insertValidation, PACKAGE_VALIDATIONS, validationJson } from "./validations";

/** Packages are read-only through the API (spec 4.2); validations check one on demand. */

const sortKeys: SortKeys<PackageRow> = {
  created: (pkg) => pkg.createdAt,
  updated: (pkg) => pkg.updatedAt,
  name: (pkg) => pkg.name,
};

function listPackages(ctx: ApiContext): void {
  const sorted = sortRecords(ctx.store.list(PACKAGES, ctx.caller.account.id), ctx.query, sortKeys);
  sendPage(ctx, sorted, (pkg) => packageJson(pkg, ctx.baseUrl));
}

function getPackage(ctx: ApiContext): void {
  sendJson(ctx.res, 200, packageJson(findOwnRow(ctx, PACKAGES), ctx.baseUrl));
}

/** An archived package no longer runs, so there is nothing to validate. */
function createValidation(ctx: ApiContext): void {
  const pkg = findOwnRow(ctx, PACKAGES);
  if (pkg.status !== "active") throw invalid([`package ${pkg.id} is ${pkg.status}: only active packages can be validated`]);
  const validation = insertValidation(ctx.store, ctx.caller.account.id, pkg.id);
  sendJson(ctx.res, 201, validationJson(validation, ctx.baseUrl));
}

function getValidation(ctx: ApiContext): void {
  const pkg = findOwnRow(ctx, PACKAGES);
  const validation = ctx.store.find(PACKAGE_VALIDATIONS, ctx.caller.account.id, parseId(ctx.params[1]));
  if (validation?.packageId !== pkg.id) throw notFound();
  sendJson(ctx.res, 200, validationJson(validation, ctx.baseUrl));
}

export const packagesRoutes: readonly Route[] = [
  { pattern: /^\/packages$/, methods: { GET: listPackages } },
  { pattern: /^\/packages\/([^/]+)\/validations$/, methods: { POST: createValidation } },
  { pattern: /^\/packages\/([^/]+)\/validations\/([^/]+)$/, methods: { GET: getValidation } },
  { pattern: /^\/packages\/([^/]+)$/, methods: { GET: getPackage } },
];
