/**
 * The program-side functions that read one record (packages, public keys, invoices) against the
 * emulator: results in camelCase and the service's not-found.
 */
import { describe, expect, it } from "vitest";
import {
  ArgumentError,
  getInvoice,
  getPackage,
  getPackageExport,
  getPackageTemplates,
  getPublicKey,
  searchPackages,
  validatePackage,
} from "../../provider/functions";
import { failureOf, useFunctionsService } from "../support/functions-service";

useFunctionsService();

describe("getPackage", () => {
  it("returns the package in camelCase, for a number or a string of digits", async () => {
    const expected = {
      id: 101,
      name: "orders-daily-rollup",
      description: "Rolls up orders",
      variables: { region: "all" },
      ownerId: 1,
      status: "active",
      url: expect.stringContaining("/packages/101"),
      htmlUrl: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      flowType: "dataflow",
      version: 1,
      flowVersion: "2.0.0",
      packageVersion: "1.0",
      itemId: expect.any(String),
    };
    const byNumber = await getPackage({ packageId: 101 });
    expect(byNumber).toEqual(expected);
    expect(Object.keys(byNumber).sort()).toEqual([
      "createdAt",
      "description",
      "flowType",
      "flowVersion",
      "htmlUrl",
      "id",
      "itemId",
      "name",
      "ownerId",
      "packageVersion",
      "status",
      "updatedAt",
      "url",
      "variables",
      "version",
    ]);
    expect(await getPackage({ packageId: "101" })).toEqual(byNumber);
  });

  it("fails with the service's Item not found. for a missing package", async () => {
    const error = await failureOf(getPackage({ packageId: 999 }));
    expect(error.message).toContain("Item not found.");
    expect(error.message).toContain("/packages/999");
  });
});

describe("the other package functions", () => {
  it("getPackageExport gives the document in the service's own names, ready to post back", async () => {
    const document = await getPackageExport({ packageId: "102" });
    expect(document).toMatchObject({
      name: "crm-to-nowhere",
      flow_type: "dataflow",
      data_flow_json: { components: [expect.objectContaining({ name: "deals" }), expect.anything()] },
    });
  });

  it("searchPackages finds by the service's search language, in camelCase", async () => {
    expect((await searchPackages({ q: "name:rollup" })).map((p) => [p.id, p.ownerId])).toEqual([[101, 1]]);
    expect(await failureOf(searchPackages({ q: " " }))).toBeInstanceOf(ArgumentError);
  });

  it("getPackageTemplates lists the templates", async () => {
    expect((await getPackageTemplates())[0]).toMatchObject({ id: 1, name: expect.any(String), position: 1 });
  });

  it("validatePackage answers the finished validation with each broken rule", async () => {
    expect(await validatePackage({ packageId: 101 })).toMatchObject({ packageId: 101, status: "completed", errors: [] });
    const failed = await validatePackage({ packageId: 102 });
    expect(failed.status).toBe("failed");
    expect(failed.errors).toEqual([expect.objectContaining({ component: "back", rule: "connection-role" })]);
    expect(failed.statusMessage).toContain("cannot be written to");
  });
});

describe("getPublicKey", () => {
  it("returns the key in camelCase", async () => {
    expect(await getPublicKey({ keyId: "10" })).toEqual({
      id: 10,
      name: "laptop",
      fingerprint: expect.stringMatching(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/),
      comment: "quickstart-deploy",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      url: expect.stringContaining("/user/keys/10"),
    });
  });

  it("fails with Item not found. for a missing key", async () => {
    expect((await failureOf(getPublicKey({ keyId: 11 }))).message).toContain("Item not found.");
  });
});

describe("getInvoice", () => {
  it("returns the invoice in camelCase; its id is a string", async () => {
    expect(await getInvoice({ invoiceId: "in_2026_10" })).toEqual({
      id: "in_2026_10",
      date: "2026-10-31",
      amount: 1312.5,
      currency: "USD",
      status: "open",
      pdfUrl: expect.any(String),
    });
  });

  it("fails with Item not found. for a missing invoice, a numeric id included", async () => {
    expect((await failureOf(getInvoice({ invoiceId: "in_1999_01" }))).message).toContain("Item not found.");
    expect((await failureOf(getInvoice({ invoiceId: 42 }))).message).toContain("/invoices/42");
  });
});
