import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../../emulator";
import {
  getPackage,
  getPackageValidation,
  listPackages,
  PACKAGE_DETAIL_FIELDS,
  PACKAGE_FIELDS,
  PACKAGE_STATUSES,
  PACKAGE_VALIDATION_FIELDS,
  packageRecord,
  packageValidationRecord,
  validatePackage,
} from "../../../provider/api/packages";
import { createHttpRequest, type RequestFn } from "../../../provider/client/http";
import { NotFoundError, ValidationError } from "../../../provider/client/errors";
import { ACCOUNT, call, DANA_KEY, expectError, nextLink, readJson, testFixtures } from "../helpers";

/** Enough packages for three pages of ten; 101 and 102 carry the details the checks read. */
const EXTRA_PACKAGES = Array.from({ length: 23 }, (_, i) => ({ id: 110 + i, name: `bulk-${String(i).padStart(2, "0")}` }));

function fixtures(): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [
      {
        ...acme!,
        packages: [
          {
            id: 101,
            name: "orders-rollup",
            description: "Rolls orders up",
            variables: { run_date: "$yesterday" },
            ownerId: 2,
            run: { seconds: 5, outputs: [{ name: "orders", records: 10 }] },
          },
          { id: 102, name: "legacy-export", status: "archived" },
          ...EXTRA_PACKAGES,
        ],
      },
      { ...globex!, packages: [{ id: 901, name: "globex-secret" }] },
    ],
  };
}

let emulator: RunningEmulator;
let dana: RequestFn;

beforeAll(async () => {
  // Fast enough that a validation completes within a few polls.
  emulator = await startEmulator({ port: 0, fixtures: fixtures(), speed: 500 });
  dana = createHttpRequest({ apiUrl: emulator.url, accountId: ACCOUNT, apiKey: DANA_KEY, vendor: "service" });
});

afterAll(async () => {
  await emulator.close();
});

/** Spec 2.4's fields and the facts' `flow_type`; a get by id adds the versions and the item. */
function expectPackage(body: unknown, detail = false): { id: number; name: string } {
  const pkg = packageRecord.parse(body);
  const extra = detail ? PACKAGE_DETAIL_FIELDS : ["flow_type"];
  expect(Object.keys(body as object).sort()).toEqual([...PACKAGE_FIELDS, ...extra].sort());
  expect(PACKAGE_STATUSES).toContain(pkg.status);
  expect(pkg.url).toBe(`${emulator.url}/${ACCOUNT}/api/packages/${pkg.id}`);
  expect(pkg.html_url).toBe(`${emulator.url}/${ACCOUNT}/packages/${pkg.id}`);
  return pkg;
}

describe("GET /packages/{package_id} (spec 4.2)", () => {
  it("answers the package with exactly the fields of spec 2.4", async () => {
    const response = await call(emulator, "/packages/101");
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(expectPackage(body, true)).toMatchObject({
      id: 101,
      name: "orders-rollup",
      description: "Rolls orders up",
      variables: { run_date: "$yesterday" },
      owner_id: 2,
      status: "active",
    });
    expect(body).not.toHaveProperty("run");
  });

  it("shows archived packages as archived", async () => {
    expect(expectPackage(await readJson(await call(emulator, "/packages/102")), true)).toMatchObject({ status: "archived" });
  });

  it.each([["/packages/999"], ["/packages/abc"], ["/packages/901"]])("answers 404 Item not found. for %s", async (path) => {
    await expectError(await call(emulator, path), 404, "Item not found.");
  });

  it("is read by the provider's getPackage", async () => {
    expect(await getPackage(dana, 101)).toMatchObject({ id: 101, name: "orders-rollup" });
    await expect(getPackage(dana, 999)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("GET /packages", () => {
  it("walks every active package of the account once through Link rel=next", async () => {
    const seen: number[] = [];
    let path: string | undefined = "/packages?limit=10";
    let pages = 0;
    while (path !== undefined) {
      const response = await call(emulator, path);
      expect(response.status).toBe(200);
      seen.push(...((await readJson(response)) as unknown[]).map((item) => expectPackage(item).id));
      path = nextLink(response)?.slice(`${emulator.url}/${ACCOUNT}/api`.length);
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([101, ...EXTRA_PACKAGES.map((p) => p.id)]);
  });

  it("sorts by name in either direction", async () => {
    const response = await call(emulator, "/packages?sort=name&direction=desc&limit=3");
    expect(((await readJson(response)) as { name: string }[]).map((p) => p.name)).toEqual(["orders-rollup", "bulk-22", "bulk-21"]);
  });

  it("is read one page at a time by the provider's listPackages", async () => {
    const page = await listPackages(dana, { offset: 1, limit: 2 });
    expect(page.items.map((p) => p.id)).toEqual([110, 111]);
    expect(page.link).toMatch(/rel="next"/);
  });

  it("lists archived packages apart, and never both at once (facts)", async () => {
    const archived = (await readJson(await call(emulator, "/packages?status=archived"))) as { id: number }[];
    expect(archived.map((p) => p.id)).toEqual([102]);
    await expectError(await call(emulator, "/packages?status=all"), 400, /status must be one of active, archived/);
  });

  it("lists nothing of another account", async () => {
    const ids = ((await readJson(await call(emulator, "/packages?limit=100"))) as { id: number }[]).map((p) => p.id);
    expect(ids).not.toContain(901);
  });
});

describe("package validations", () => {
  function expectValidation(body: unknown): { id: number; status: string } {
    const validation = packageValidationRecord.parse(body);
    expect(Object.keys(body as object).sort()).toEqual([...PACKAGE_VALIDATION_FIELDS].sort());
    expect(validation.url).toBe(`${emulator.url}/${ACCOUNT}/api/packages/${validation.package_id}/validations/${validation.id}`);
    return validation;
  }

  it("starts running and completes without errors for a package of the fixtures, which has no flow", async () => {
    const response = await call(emulator, "/packages/101/validations", { method: "POST" });
    expect(response.status).toBe(201);
    const created = expectValidation(await readJson(response));
    expect(created).toMatchObject({ package_id: 101, status: "running", errors: [] });

    const deadline = Date.now() + 5000;
    let status = created.status;
    while (status === "running" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const polled = await call(emulator, `/packages/101/validations/${created.id}`);
      expect(polled.status).toBe(200);
      status = expectValidation(await readJson(polled)).status;
    }
    expect(status).toBe("completed");
  });

  it("is reachable through the provider's functions", async () => {
    const created = await validatePackage(dana, 101);
    expect((await getPackageValidation(dana, 101, created.id)).id).toBe(created.id);
    await expect(validatePackage(dana, 102)).rejects.toBeInstanceOf(ValidationError);
  });

  it("refuses to validate an archived package with 422", async () => {
    await expectError(await call(emulator, "/packages/102/validations", { method: "POST" }), 422, /package 102 is archived/);
  });

  it("answers 404 for an unknown package or a validation of another package", async () => {
    await expectError(await call(emulator, "/packages/999/validations", { method: "POST" }), 404, "Item not found.");
    await expectError(await call(emulator, "/packages/901/validations", { method: "POST" }), 404, "Item not found.");
    const created = await validatePackage(dana, 101);
    await expectError(await call(emulator, `/packages/110/validations/${created.id}`), 404, "Item not found.");
    await expectError(await call(emulator, "/packages/101/validations/99999"), 404, "Item not found.");
  });
});
