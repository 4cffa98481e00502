/**
 * Packages (facts, "Packages" and "Package validations"): one by id, its export document, a
 * search, the templates, and a validation of an existing package for a check before a merge.
 */
import { z } from "zod";
import {
  exportPackage,
  getPackage as fetchPackage,
  listPackageTemplates,
  packageRecord,
  searchPackagesRequest,
  validatePackageNow,
  type PackageExportRecord,
  type PackageRecord,
  type PackageTemplateRecord,
  type PackageValidationRecord,
} from "../api/packages";
import { camelCased, type CamelCased } from "../api/records";
import { collectAllPages } from "../client/pagination";
import { programFunction, type FunctionContext } from "./context";
import { nonBlankText, parseArguments, recordId } from "./arguments";

export interface GetPackageArgs {
  /** A number, or a string of digits (such as a Package's `id`). */
  packageId: number | string;
}

export interface SearchPackagesArgs {
  /** The service's search language: `name:orders`, `description:daily`, `user:12`, `created:>2026-01-01`, free text. */
  q: string;
}

/** The package as the service returns it, with camelCase field names. */
export type PackageInfo = CamelCased<PackageRecord>;
export type PackageTemplateInfo = CamelCased<PackageTemplateRecord>;
export type PackageValidationInfo = CamelCased<PackageValidationRecord>;

const packageArgs = z.strictObject({ packageId: recordId() });
const searchArgs = z.strictObject({ q: nonBlankText() });

/** Spec 4.2. A missing package fails with the service's `Item not found.` */
export const getPackage = programFunction(async function getPackage(ctx: FunctionContext, args: GetPackageArgs): Promise<PackageInfo> {
  const { packageId } = parseArguments("getPackage", packageArgs, args);
  return camelCased(await fetchPackage(ctx.request, packageId));
});

/**
 * The package's export document, as the service gives it (its own field names, not camelCase):
 * kept in a file of the repository, it is a `Package`'s `dataFlow`, in this account or another.
 */
export const getPackageExport = programFunction(async function getPackageExport(ctx: FunctionContext, args: GetPackageArgs): Promise<PackageExportRecord> {
  const { packageId } = parseArguments("getPackageExport", packageArgs, args);
  return exportPackage(ctx.request, packageId);
});

/** Every package matching `q`, following the pages the service announces. */
export const searchPackages = programFunction(async function searchPackages(ctx: FunctionContext, args: SearchPackagesArgs): Promise<PackageInfo[]> {
  const { q } = parseArguments("searchPackages", searchArgs, args);
  const records = await collectAllPages(ctx.request, searchPackagesRequest(q), packageRecord, { what: "packages" });
  return records.map((record) => camelCased(record));
});

export const getPackageTemplates = programFunction(async function getPackageTemplates(ctx: FunctionContext): Promise<PackageTemplateInfo[]> {
  return (await listPackageTemplates(ctx.request)).map((record) => camelCased(record));
});

/** Validates the package now and answers the finished validation: `completed`, or `failed` with each error. */
export const validatePackage = programFunction(async function validatePackage(ctx: FunctionContext, args: GetPackageArgs): Promise<PackageValidationInfo> {
  const { packageId } = parseArguments("validatePackage", packageArgs, args);
  return camelCased(await validatePackageNow(ctx.request, packageId));
});
