/** Packages are made in the service's web application; programs read them by id. */
import { z } from "zod";
import { getPackage as fetchPackage, type PackageRecord } from "../api/packages";
import { camelCased, type CamelCased } from "../api/records";
import { programRequest } from "../context";
import { parseArguments, recordId } from "./arguments";

export interface GetPackageArgs {
  /** A number, or a string of digits. */
  packageId: number | string;
}

/** The package as the service returns it, with camelCase field names. */
export type PackageInfo = CamelCased<PackageRecord>;

const getPackageArgs = z.strictObject({ packageId: recordId() });

/** Spec 4.2. A missing package fails with the service's `Item not found.` */
export async function getPackage(args: GetPackageArgs): Promise<PackageInfo> {
  const { packageId } = parseArguments("getPackage", getPackageArgs, args);
  return camelCased(await fetchPackage(programRequest(), packageId));
}

