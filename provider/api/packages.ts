/** Packages, read-only through the API: `{base_url}/packages` (spec 2.4 and 4.2, facts). */
import { z } from "zod";
import type { RequestFn } from "../client/http";
import { PACKAGE_STATUSES, VALIDATION_STATUSES, type PackageStatus } from "../../contract/vocabularies";
import { parsePage, parseRecord, type Page, type PageRequest } from "./records";

const dateTime = z.iso.datetime({ offset: true });

/** The spec leaves the values open; these are the ones the service is known to use. */
export { PACKAGE_STATUSES, VALIDATION_STATUSES, type PackageStatus };

export const packageRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable().transform((d) => d ?? ""),
  variables: z.record(z.string(), z.unknown()),
  owner_id: z.number().int(),
  created_at: dateTime,
  updated_at: dateTime,
  url: z.string(),
  html_url: z.string(),
  status: z.string(),
});
export type PackageRecord = z.output<typeof packageRecord>;

/** Every field a package may have; anything else in a response is undocumented. */
export const PACKAGE_FIELDS: readonly string[] = Object.keys(packageRecord.shape);


export const packageValidationRecord = z.object({
  id: z.number().int(),
  package_id: z.number().int(),
  status: z.string(),
  errors: z.array(z.object({ message: z.string() })),
  created_at: dateTime,
  updated_at: dateTime,
  url: z.string(),
});
export type PackageValidationRecord = z.output<typeof packageValidationRecord>;

export const PACKAGE_VALIDATION_FIELDS: readonly string[] = Object.keys(packageValidationRecord.shape);

const packagePath = (id: string | number) => `/packages/${encodeURIComponent(String(id))}`;

export async function getPackage(request: RequestFn, id: string | number): Promise<PackageRecord> {
  const response = await request({ method: "GET", path: packagePath(id) });
  return parseRecord(packageRecord, response.body, "a package");
}

/** One page of the account's packages, in the service's order. */
export async function listPackages(request: RequestFn, page: PageRequest = {}): Promise<Page<PackageRecord>> {
  const response = await request({ method: "GET", path: "/packages", query: { offset: page.offset, limit: page.limit } });
  return parsePage(packageRecord, response, "a list of packages");
}

export async function validatePackage(request: RequestFn, id: string | number): Promise<PackageValidationRecord> {
  const response = await request({ method: "POST", path: `${packagePath(id)}/validations` });
  return parseRecord(packageValidationRecord, response.body, "a package validation");
}

export async function getPackageValidation(
  request: RequestFn,
  packageId: string | number,
  validationId: string | number,
): Promise<PackageValidationRecord> {
  const path = `${packagePath(packageId)}/validations/${encodeURIComponent(String(validationId))}`;
  const response = await request({ method: "GET", path });
  return parseRecord(packageValidationRecord, response.body, "a package validation");
}
