/** Packages: `{base_url}/packages` (spec 2.4 and 4.2; facts, "Packages" and "Package validations"). */
import { z } from "zod";
import type { RequestFn } from "../client/http";
import { PACKAGE_STATUSES } from "../../contract/vocabularies";
import { collection } from "./collection";
import { parsePage, parseRecord, type Page, type PageRequest } from "./records";

const dateTime = z.iso.datetime({ offset: true });

/** The spec leaves the values open; these are the ones the service is known to use. */
export { PACKAGE_STATUSES };

/** Spec 2.4's fields. */
const packageShape = {
  id: z.number().int(),
  name: z.string(),
  description: z
    .string()
    .nullable()
    .transform((d) => d ?? ""),
  variables: z.record(z.string(), z.unknown()),
  owner_id: z.number().int(),
  created_at: dateTime,
  updated_at: dateTime,
  url: z.string(),
  html_url: z.string(),
  status: z.string(),
};

/** What the facts add: `flow_type` in every answer, the versions and the item in a get by id. */
const packageDetail = {
  flow_type: z.string().optional(),
  version: z.number().int().optional(),
  flow_version: z.string().optional(),
  package_version: z.string().optional(),
  item_id: z.string().optional(),
};

export const packageRecord = z.object({ ...packageShape, ...packageDetail });
export type PackageRecord = z.output<typeof packageRecord>;

/** Spec 2.4's fields, which every package answer has. */
export const PACKAGE_FIELDS: readonly string[] = Object.keys(packageShape);
/** The facts' additions: `flow_type` everywhere, the rest in a get by id. */
export const PACKAGE_DETAIL_FIELDS: readonly string[] = Object.keys(packageDetail);

export const packageValidationRecord = z.object({
  id: z.number().int(),
  package_id: z.number().int(),
  owner_id: z.number().int().nullable().optional(),
  account_id: z.number().int().optional(),
  status: z.string(),
  status_message: z.string().nullable().optional(),
  runtime: z.number().nullable().optional(),
  /** `component` and `rule` are the emulator's; the facts list `message` alone. */
  errors: z.array(z.object({ message: z.string(), component: z.string().optional(), rule: z.string().optional() })),
  created_at: dateTime,
  updated_at: dateTime,
  url: z.string(),
});
export type PackageValidationRecord = z.output<typeof packageValidationRecord>;

/** What the Package resource reads: the package, its flow from the export, its latest validation. */
export const packageStateRecord = packageRecord.extend({ data_flow_json: z.unknown().optional(), validation: packageValidationRecord.optional() });

export const PACKAGE_VALIDATION_FIELDS: readonly string[] = Object.keys(packageValidationRecord.shape);

/** The export document: the create body's own fields, so it can be posted back as it is. */
export const packageExportRecord = z
  .object({
    name: z.string(),
    description: z.string().nullable().optional(),
    variables: z.record(z.string(), z.string()).optional(),
    flow_type: z.string().optional(),
    flow_version: z.string().optional(),
    package_version: z.string().optional(),
    data_flow_json: z.unknown(),
  })
  .loose();
export type PackageExportRecord = z.output<typeof packageExportRecord>;

export const packageTemplateRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  position: z.number().int().nullable().optional(),
  author: z
    .object({ id: z.number().int().nullable().optional(), name: z.string().nullable().optional(), avatar_url: z.string().nullable().optional() })
    .nullable()
    .optional(),
});
export type PackageTemplateRecord = z.output<typeof packageTemplateRecord>;

export const packages = collection({ path: "/packages", record: packageRecord, what: "a package" });

/** `archivePackage`: the service's delete is soft, the package is archived and stays readable. */
export const { create: createPackage, get: getPackage, update: updatePackage, deleteAnswered: archivePackage } = packages;

export async function exportPackage(request: RequestFn, id: string | number): Promise<PackageExportRecord> {
  const response = await request({ method: "GET", path: `${packages.pathOf(id)}/export` });
  return parseRecord(packageExportRecord, response.body, "a package's export document");
}

export async function listPackageTemplates(request: RequestFn): Promise<PackageTemplateRecord[]> {
  const response = await request({ method: "GET", path: "/packages/templates" });
  return parseRecord(z.array(packageTemplateRecord), response.body, "the package templates");
}

/** One page of the account's packages, in the service's order. */
export async function listPackages(request: RequestFn, page: PageRequest = {}): Promise<Page<PackageRecord>> {
  const response = await request({ method: "GET", path: "/packages", query: { offset: page.offset, limit: page.limit } });
  return parsePage(packageRecord, response, "a list of packages");
}

/** The first page of the account's active packages, newest first; follow its `Link` for the rest. */
export function listNewPackagesRequest() {
  return { method: "GET" as const, path: "/packages", query: { sort: "created", direction: "desc" } };
}

/** The first page of a search (facts, "Search endpoints"); follow its `Link` for the rest. */
export function searchPackagesRequest(q: string) {
  return { method: "GET" as const, path: "/packages/search", query: { q } };
}

/** Asynchronous: the validation answers `running`; poll `getPackageValidation`. */
export async function validatePackage(request: RequestFn, id: string | number): Promise<PackageValidationRecord> {
  // A second validation changes nothing of the package: safe to send again after a lost answer.
  const response = await request({ method: "POST", path: `${packages.pathOf(id)}/validations`, idempotent: true });
  return parseRecord(packageValidationRecord, response.body, "a package validation");
}

/** Synchronous: the validation in its final state, `completed` or `failed`. */
export async function validatePackageNow(request: RequestFn, id: string | number): Promise<PackageValidationRecord> {
  const response = await request({ method: "POST", path: `${packages.pathOf(id)}/validate`, idempotent: true });
  return parseRecord(packageValidationRecord, response.body, "a package validation");
}

export async function getPackageValidation(request: RequestFn, packageId: string | number, validationId: string | number): Promise<PackageValidationRecord> {
  const path = `${packages.pathOf(packageId)}/validations/${encodeURIComponent(String(validationId))}`;
  const response = await request({ method: "GET", path });
  return parseRecord(packageValidationRecord, response.body, "a package validation");
}

/** The package's newest validation, or undefined when it has none. */
export async function latestPackageValidation(request: RequestFn, id: string | number): Promise<PackageValidationRecord | undefined> {
  const path = `${packages.pathOf(id)}/validations`;
  const response = await request({ method: "GET", path, query: { sort: "created", direction: "desc", limit: 1 } });
  return parsePage(packageValidationRecord, response, "a package's validations").items[0];
}
