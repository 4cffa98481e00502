/** Packages are made in the service's web application; programs read them by id. */
import { z } from "zod";
import { getPackage as fetchPackage, type PackageRecord } from "../api/packages";
import { programRequest } from "../context";
import { parseArguments, recordId } from "./arguments";

export interface GetPackageArgs {
  /** A number, or a string of digits. */
  packageId: number | string;
}

export interface PackageInfo {
  id: number;
  name: string;
  description: string;
  variables: Record<string, unknown>;
  ownerId: number;
  createdAt: string;
  updatedAt: string;
  url: string;
  htmlUrl: string;
  status: string;
}

const getPackageArgs = z.strictObject({ packageId: recordId() });

/** Spec 4.2. A missing package fails with the service's `Item not found.` */
export async function getPackage(args: GetPackageArgs): Promise<PackageInfo> {
  const { packageId } = parseArguments("getPackage", getPackageArgs, args);
  return packageInfoOf(await fetchPackage(programRequest(), packageId));
}

function packageInfoOf(record: PackageRecord): PackageInfo {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    variables: record.variables,
    ownerId: record.owner_id,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    url: record.url,
    htmlUrl: record.html_url,
    status: record.status,
  };
}
