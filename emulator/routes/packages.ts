import { isoTime } from "../clock";
import { HttpError, notFound, sendJson } from "../http";
import { paginate } from "../pagination";
import { parseId, type ApiContext, type Route } from "../routing";
import { sortRecords, type SortKeys } from "../sorting";
import {
  PACKAGE_VALIDATIONS,
  PACKAGES,
  packageJson,
  validationJson,
  type PackageRow,
} from "../model/packages";

/** Packages are read-only through the API (spec 4.2); validations check one on demand. */

const sortKeys: SortKeys<PackageRow> = {
  created: (pkg) => pkg.createdAt,
  updated: (pkg) => pkg.updatedAt,
  name: (pkg) => pkg.name,
};

function findPackage(ctx: ApiContext): PackageRow {
  const pkg = ctx.store.find(PACKAGES, ctx.caller.account.id, parseId(ctx.params[0]));
  if (pkg === undefined) throw notFound();
  return pkg;
}

function listPackages(ctx: ApiContext): void {
  const sorted = sortRecords(ctx.store.list(PACKAGES, ctx.caller.account.id), ctx.query, sortKeys);
  const page = paginate(sorted, ctx.query, { origin: ctx.origin, pathname: ctx.pathname });
  sendJson(ctx.res, 200, page.items.map((pkg) => packageJson(pkg, ctx.baseUrl)), page.headers);
}

function getPackage(ctx: ApiContext): void {
  sendJson(ctx.res, 200, packageJson(findPackage(ctx), ctx.baseUrl));
}

/** An archived package no longer runs, so there is nothing to validate. */
function createValidation(ctx: ApiContext): void {
  const pkg = findPackage(ctx);
  if (pkg.status !== "active") {
    throw new HttpError(422, `package ${pkg.id} is ${pkg.status}: only active packages can be validated`);
  }
  const now = isoTime(ctx.store.clock.now());
  const validation = ctx.store.insert(PACKAGE_VALIDATIONS, {
    accountId: ctx.caller.account.id,
    packageId: pkg.id,
    status: "running",
    errors: [],
    statusSince: now,
    createdAt: now,
    updatedAt: now,
  });
  sendJson(ctx.res, 201, validationJson(validation, ctx.baseUrl));
}

function getValidation(ctx: ApiContext): void {
  const pkg = findPackage(ctx);
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
