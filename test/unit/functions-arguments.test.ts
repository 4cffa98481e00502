/**
 * The program-side functions' argument checks, made before any request, and the configuration
 * they need, against the emulator configured through ETL_* environment variables.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import {
  ArgumentError,
  getConnection,
  getInvoice,
  getMember,
  getPackage,
  getPublicKey,
  getRegions,
  listAdsPlatformCustomers,
  listConnections,
  listCrmObjects,
  listWebAnalyticsAccounts,
  markNotificationsRead,
  searchConnectionGroups,
} from "../../provider/functions";
import { failureOf, useFunctionsService } from "../support/functions-service";

const service = useFunctionsService();

describe("argument checks", () => {
  const cases: Array<[string, () => Promise<unknown>, string]> = [
    ["getPackage", () => getPackage({ packageId: 0 }), "getPackage: packageId must be a positive integer"],
    ["getPackage", () => getPackage({ packageId: "12a" }), "getPackage: packageId must be a positive integer"],
    ["getPackage", () => getPackage({ packageId: 1.5 }), "getPackage: packageId must be a positive integer"],
    ["getPackage", () => getPackage({} as never), "getPackage: packageId is required"],
    ["getPackage", () => getPackage(undefined as never), "getPackage: packageId is required"],
    ["getPackage", () => getPackage(101 as never), "getPackage: expects an object of arguments, got number"],
    ["getPackage", () => getPackage({ packageId: 1, packageID: 1 } as never), "getPackage: packageID is not an argument of getPackage"],
    ["getPublicKey", () => getPublicKey({ keyId: -3 }), "getPublicKey: keyId must be a positive integer"],
    ["getInvoice", () => getInvoice({ invoiceId: "  " }), "getInvoice: invoiceId must be a non-empty string"],
    ["getInvoice", () => getInvoice({ invoiceId: null } as never), "getInvoice: invoiceId must be a non-empty string"],
    ["searchConnectionGroups", () => searchConnectionGroups({ q: "" }), "searchConnectionGroups: q must be a non-empty string"],
    [
      "searchConnectionGroups",
      () => searchConnectionGroups({ q: "x", offset: -1, limit: 101 }),
      "searchConnectionGroups: offset must be an integer of at least 0; limit must be an integer from 1 to 100",
    ],
    ["searchConnectionGroups", () => searchConnectionGroups({ q: "x", limit: "5" } as never), "searchConnectionGroups: limit must be an integer from 1 to 100"],
    ["listWebAnalyticsAccounts", () => listWebAnalyticsAccounts({ connectionId: "abc" }), "listWebAnalyticsAccounts: connectionId must be a positive integer"],
    ["listAdsPlatformCustomers", () => listAdsPlatformCustomers({ connectionId: 0 }), "listAdsPlatformCustomers: connectionId must be a positive integer"],
    ["listCrmObjects", () => listCrmObjects({ connectionId: 2 ** 60 }), "listCrmObjects: connectionId must be a positive integer"],
    ["markNotificationsRead", () => markNotificationsRead({ id: "all" }), "markNotificationsRead: id must be a positive integer"],
    ["getMember", () => getMember({ email: "dana" }), "getMember: email must be an email address"],
    [
      "getConnection",
      () => getConnection({ type: "postgress", id: 301 }),
      expect.stringMatching(/^getConnection: type must be a connection type: postgres, mysql, /) as unknown as string,
    ],
    ["getConnection", () => getConnection({ type: "postgres", id: "warehouse" }), "getConnection: id must be a positive integer"],
    [
      "listConnections",
      () => listConnections({ type: "ftp" }),
      expect.stringMatching(/^listConnections: type must be a connection type: /) as unknown as string,
    ],
    ["getRegions", () => getRegions({ type: "postgres" as never }), "getRegions: type must be one of redshift, bigquery, s3, snowflake, athena"],
    [
      "getRegions",
      () => getRegions({ type: "snowflake", account: true }),
      "getRegions: type must not be given with account: the account's regions are not by type",
    ],
  ];

  it.each(cases)("%s refuses a bad argument before any request: %#", async (_name, call, message) => {
    const error = await failureOf(call());
    expect(error).toBeInstanceOf(ArgumentError);
    expect(error.message).toEqual(message);
    expect(await service.loggedRequests()).toEqual([]);
  });

  it("says how to pass an Output, which is not a plain value", async () => {
    const error = await failureOf(getPackage({ packageId: pulumi.output(101) as never }));
    expect(error.message).toBe("getPackage: packageId is an Output: call getPackage inside apply() to pass its value");
  });

  it("reports missing configuration before any request", async () => {
    const url = process.env.ETL_API_URL;
    delete process.env.ETL_API_URL;
    try {
      const error = await failureOf(getPackage({ packageId: 101 }));
      expect(error.message).toContain("etl:apiUrl is not set");
    } finally {
      process.env.ETL_API_URL = url;
    }
    expect(await service.loggedRequests()).toEqual([]);
  });
});
