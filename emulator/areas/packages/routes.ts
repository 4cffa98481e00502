import { PACKAGE_STATUSES } from "../../../contract/vocabularies";
import { invalid, parseBody, readObjectBody } from "../../body";
import { isoTime } from "../../clock";
import { HttpError, notFound, sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { readIdFilter, readTimeFilter } from "../../query";
import { findOwnRow, type ApiContext, type Route } from "../../routing";
import { exactly, inPart, searchRecords, type SearchSpace } from "../../search";
import { sortRecords, type SortKeys } from "../../sorting";
import { createBodySchema, updateBodySchema, type CreateBody } from "./body";
import { packageAtVersion, recordVersion } from "./history";
import {
  archive,
  FLOW_TYPES,
  insertPackage,
  PACKAGE_DEFAULTS,
  packageExport,
  packageJson,
  PACKAGES,
  versions,
  changedAt,
  type NewPackage,
  type PackageRow,
} from "./model";
import { PACKAGE_TEMPLATES, templateJson } from "./templates";
import { validationRoutes } from "./validation-routes";

/** Packages (spec 2.4 and 4.2; facts, "Packages"): made, changed, archived and exported through the API. */

const sortKeys: SortKeys<PackageRow> = {
  created: (pkg) => pkg.createdAt,
  updated: (pkg) => pkg.updatedAt,
  name: (pkg) => pkg.name,
};

const packageSearch: SearchSpace<PackageRow> = {
  attributes: {
    id: exactly((pkg) => pkg.id),
    name: inPart((pkg) => pkg.name),
    description: inPart((pkg) => pkg.description),
    user: exactly((pkg) => pkg.ownerId),
    modified: inPart((pkg) => pkg.updatedAt.toLowerCase()),
  },
  text: inPart(
    (pkg) => pkg.name,
    (pkg) => pkg.description,
  ),
};

function sendPackage(ctx: ApiContext, status: number, pkg: PackageRow): void {
  sendJson(ctx.res, status, packageJson(pkg, ctx.baseUrl, true));
}

/** `status`: active (the default) or archived, never both at once (facts); `flow_type`: one, or all. */
function readListFilters(query: URLSearchParams): { status: string; flowType: string | undefined } {
  const status = query.get("status") ?? "active";
  if (!(PACKAGE_STATUSES as readonly string[]).includes(status)) throw new HttpError(400, `status must be one of ${PACKAGE_STATUSES.join(", ")}`);
  const flowType = query.get("flow_type") ?? "all";
  if (flowType !== "all" && !(FLOW_TYPES as readonly string[]).includes(flowType))
    throw new HttpError(400, `flow_type must be all or one of ${FLOW_TYPES.join(", ")}`);
  return { status, flowType: flowType === "all" ? undefined : flowType };
}

function listPackages(ctx: ApiContext): void {
  const { status, flowType } = readListFilters(ctx.query);
  const since = readTimeFilter(ctx.query, "since");
  const packages = ctx.store
    .list(PACKAGES, ctx.caller.account.id)
    .filter((pkg) => pkg.status === status && (flowType === undefined || versions(pkg).flowType === flowType))
    .filter((pkg) => since === undefined || Date.parse(pkg.updatedAt) >= since);
  sendPage(ctx, sortRecords(packages, ctx.query, sortKeys), (pkg) => packageJson(pkg, ctx.baseUrl));
}

function searchPackages(ctx: ApiContext): void {
  const packages = searchRecords(ctx.store.list(PACKAGES, ctx.caller.account.id), ctx.query, packageSearch);
  sendPage(ctx, packages, (pkg) => packageJson(pkg, ctx.baseUrl));
}

/** `version`, `flow_version` and `package_version` pick a saved version; `item_id` must be the package's. */
function getPackage(ctx: ApiContext): void {
  const pkg = findOwnRow(ctx, PACKAGES);
  const itemId = ctx.query.get("item_id");
  if (itemId !== null && itemId !== versions(pkg).itemId) throw notFound();
  const version = readIdFilter(ctx.query, "version");
  const flowVersion = ctx.query.get("flow_version") ?? undefined;
  const packageVersion = ctx.query.get("package_version") ?? undefined;
  const found = packageAtVersion(ctx.store, pkg, { version, flowVersion, packageVersion });
  if (found === undefined) throw notFound();
  sendPackage(ctx, 200, found);
}

/** What a copy (`source_package_id`) or a template (`package_template_id`) starts from; the body's own fields win. */
function startingPoint(ctx: ApiContext, body: CreateBody): Partial<NewPackage> {
  if (body.source_package_id !== undefined && body.package_template_id !== undefined) {
    throw invalid(["source_package_id and package_template_id cannot both be given"]);
  }
  if (body.source_package_id !== undefined) {
    const source = ctx.store.find(PACKAGES, ctx.caller.account.id, body.source_package_id);
    if (source === undefined) throw invalid([`source_package_id ${body.source_package_id} does not name a package of this account`]);
    const { name, description, variables, dataFlow, run } = source;
    return { name: `Copy of ${name}`, description, variables, flowType: versions(source).flowType, dataFlow: dataFlow ?? null, ...(run ? { run } : {}) };
  }
  if (body.package_template_id !== undefined) {
    const template = PACKAGE_TEMPLATES.find((t) => t.id === body.package_template_id);
    if (template === undefined) throw invalid([`package_template_id ${body.package_template_id} does not name a template; GET /packages/templates lists them`]);
    return { name: template.name, description: template.description, variables: template.variables, flowType: template.flowType, dataFlow: template.dataFlow };
  }
  return {};
}

async function createPackage(ctx: ApiContext): Promise<void> {
  const body = parseBody(createBodySchema, await readObjectBody(ctx.req));
  const start = startingPoint(ctx, body);
  const pkg = insertPackage(ctx.store, {
    accountId: ctx.caller.account.id,
    ownerId: ctx.caller.user.id,
    name: body.name ?? start.name ?? PACKAGE_DEFAULTS.name,
    description: body.description ?? start.description ?? "",
    variables: body.variables ?? start.variables ?? {},
    flowType: body.flow_type ?? start.flowType ?? PACKAGE_DEFAULTS.flowType,
    flowVersion: body.flow_version ?? PACKAGE_DEFAULTS.flowVersion,
    dataFlow: body.data_flow_json ?? start.dataFlow ?? { components: [], edges: [] },
    packageVersion: body.package_version,
    ...(start.run ? { run: start.run } : {}),
  });
  recordVersion(ctx.store, pkg);
  sendPackage(ctx, 201, pkg);
}

/** Every update saves a new version; an archived package cannot be changed (un-archiving is undocumented). */
async function updatePackage(ctx: ApiContext): Promise<void> {
  const raw = await readObjectBody(ctx.req);
  const pkg = findOwnRow(ctx, PACKAGES);
  const body = parseBody(updateBodySchema, raw);
  const v = versions(pkg);
  const problems: string[] = [];
  if (pkg.status === "archived") problems.push(`package ${pkg.id} is archived and cannot be changed`);
  if (body.flow_type !== undefined && body.flow_type !== v.flowType) problems.push(`flow_type cannot be changed (it is ${v.flowType})`);
  if (problems.length > 0) throw invalid(problems);
  ctx.store.update(PACKAGES, pkg, {
    name: body.name ?? pkg.name,
    description: body.description === undefined ? pkg.description : (body.description ?? ""),
    variables: body.variables ?? pkg.variables,
    dataFlow: body.data_flow_json ?? pkg.dataFlow ?? null,
    flowVersion: body.flow_version ?? v.flowVersion,
    packageVersion: body.package_version ?? v.packageVersion,
    version: v.version + 1,
    updatedAt: changedAt(pkg, ctx.store.clock.now()),
  });
  recordVersion(ctx.store, pkg);
  sendPackage(ctx, 200, pkg);
}

/** The service's delete is soft: the package is archived, still readable, and answered with 200. */
function deletePackage(ctx: ApiContext): void {
  const pkg = findOwnRow(ctx, PACKAGES);
  archive(ctx.store, pkg, isoTime(ctx.store.clock.now()));
  sendPackage(ctx, 200, pkg);
}

function exportPackage(ctx: ApiContext): void {
  sendJson(ctx.res, 200, packageExport(findOwnRow(ctx, PACKAGES)));
}

function listTemplates(ctx: ApiContext): void {
  sendJson(ctx.res, 200, PACKAGE_TEMPLATES.map(templateJson));
}

export const packagesRoutes: readonly Route[] = [
  { pattern: /^\/packages$/, methods: { GET: listPackages, POST: createPackage } },
  { pattern: /^\/packages\/search$/, methods: { GET: searchPackages } },
  { pattern: /^\/packages\/templates$/, methods: { GET: listTemplates } },
  ...validationRoutes,
  { pattern: /^\/packages\/([^/]+)\/export$/, methods: { GET: exportPackage } },
  { pattern: /^\/packages\/([^/]+)$/, methods: { GET: getPackage, PUT: updatePackage, DELETE: deletePackage } },
];
