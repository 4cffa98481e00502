import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { parseSshPublicKey } from "../contract/ssh-public-key";

/**
 * The fixtures format: the records the emulator starts with. Tests and demos describe their
 * world in it, so every mistake is reported with the JSON path of the offending value.
 */

const positiveId = z.number().int().positive();

// The uid is a URL segment; the underscore prefix is kept free for the control endpoints.
const accountUid = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "must be letters, digits, '.', '_' or '-', not starting with '.', '_' or '-'");

const userSchema = z.object({
  id: positiveId,
  name: z.string().min(1),
  email: z.email(),
  apiKey: z.string().min(1),
});

const publicKeySchema = z.object({
  id: positiveId.optional(),
  userId: positiveId.optional(),
  name: z.string().min(1).max(255).optional(),
  publicKey: z.string().min(1),
});

const isoDateTime = z.iso.datetime({ offset: true });
const jsonObject = z.record(z.string(), z.unknown());
const nonNegative = z.number().nonnegative();

/** How every job of a package behaves: how long it runs, how it ends, what it writes. */
const packageRunSchema = z.object({
  seconds: nonNegative.default(10),
  outcome: z.enum(["completed", "failed"]).default("completed"),
  error: z.string().optional(),
  outputs: z
    .array(
      z.object({
        name: z.string().min(1),
        records: z.number().int().nonnegative(),
        component: z.object({ name: z.string(), type: z.string(), fields: z.array(z.string()) }).optional(),
      }),
    )
    .default([]),
});

const packageSchema = z.object({
  id: positiveId,
  name: z.string().min(1),
  description: z.string().default(""),
  status: z.enum(["active", "archived"]).default("active"),
  variables: z.record(z.string(), z.string()).default({}),
  ownerId: positiveId.optional(),
  run: packageRunSchema.default({ seconds: 10, outcome: "completed", outputs: [] }),
});

const clusterSchema = z.object({
  id: positiveId.optional(),
  name: z.string().min(1),
  description: z.string().default(""),
  type: z.enum(["production", "sandbox"]).default("production"),
  nodes: z.number().int().min(1).max(100).default(1),
  /** Fixture clusters start settled: ready to run jobs, or already gone. */
  status: z.enum(["available", "idle", "terminated"]).default("available"),
  region: z.string().default("us-east-1"),
  terminateOnIdle: z.boolean().default(false),
  timeToIdle: z.number().int().positive().default(3600),
  ownerId: positiveId.optional(),
});

const connectionSchema = z.object({
  id: positiveId,
  name: z.string().min(1),
  /** Database and cloud-storage connections go into groups; the three listings serve others. */
  type: z.string().min(1),
  webAnalyticsAccounts: z.array(jsonObject).optional(),
  adsPlatformCustomers: z.array(jsonObject).optional(),
  crmObjects: z.array(jsonObject).optional(),
});

const connectionGroupSchema = z.object({
  id: positiveId.optional(),
  name: z.string().min(1),
  description: z.string().nullable().default(null),
  connectionIds: z.array(positiveId).default([]),
});

const invoiceSchema = z.object({
  id: z.string().min(1),
  date: z.iso.date(),
  amount: z.number(),
  currency: z.string().min(1).default("USD"),
  status: z.string().min(1).default("paid"),
  pdfUrl: z.string().optional(),
});

const notificationSchema = z.object({
  id: positiveId.optional(),
  userId: positiveId.optional(),
  title: z.string().min(1),
  body: z.string().default(""),
  read: z.boolean().default(false),
  createdAt: isoDateTime.optional(),
});

const accountSchema = z.object({
  id: positiveId,
  uid: accountUid,
  /** Billing information on file; `false` makes job runs answer 402. */
  billing: z.boolean().default(true),
  users: z.array(userSchema).min(1),
  publicKeys: z.array(publicKeySchema).optional(),
  packages: z.array(packageSchema).default([]),
  clusters: z.array(clusterSchema).default([]),
  connections: z.array(connectionSchema).default([]),
  connectionGroups: z.array(connectionGroupSchema).default([]),
  invoices: z.array(invoiceSchema).default([]),
  notifications: z.array(notificationSchema).default([]),
});

export type AccountFixture = z.output<typeof accountSchema>;
export type PackageFixture = z.output<typeof packageSchema>;
export type PackageRun = z.output<typeof packageRunSchema>;

const recordsSchema = z.object({
  accounts: z.array(accountSchema),
  /** Service-wide news (spec 4.9), the same for every account. */
  productUpdates: z.array(jsonObject).default([]),
});

export const fixturesSchema = recordsSchema.superRefine(checkReferences);

/** Fixtures as written by hand (optional fields may be left out). */
export type Fixtures = z.input<typeof fixturesSchema>;
/** Fixtures after validation. */
export type ValidFixtures = z.output<typeof fixturesSchema>;

type Path = (string | number)[];

/** Reports the second occurrence of a value that must be unique, at its own path. */
function checkUnique<T>(
  ctx: z.RefinementCtx,
  values: { value: T; path: Path }[],
  what: string,
): void {
  const seen = new Set<T>();
  for (const { value, path } of values) {
    if (seen.has(value)) {
      ctx.addIssue({ code: "custom", path, message: `duplicate ${what}` });
    }
    seen.add(value);
  }
}

/** Cross-record rules zod's per-field schemas cannot express. */
function checkReferences(fixtures: z.output<typeof recordsSchema>, ctx: z.RefinementCtx): void {
  const accounts = fixtures.accounts;
  checkUnique(ctx, accounts.map((a, i) => ({ value: a.id, path: ["accounts", i, "id"] })), "account id");
  checkUnique(ctx, accounts.map((a, i) => ({ value: a.uid, path: ["accounts", i, "uid"] })), "account uid");
  // A key alone identifies the caller, so it must be unique across every account.
  checkUnique(
    ctx,
    accounts.flatMap((a, i) => a.users.map((u, j) => ({ value: u.apiKey, path: ["accounts", i, "users", j, "apiKey"] }))),
    "apiKey",
  );
  // Users and keys are numbered by one sequence each, as in a single database.
  checkUnique(
    ctx,
    accounts.flatMap((a, i) => a.users.map((u, j) => ({ value: u.id, path: ["accounts", i, "users", j, "id"] }))),
    "user id",
  );
  checkUnique(
    ctx,
    accounts.flatMap((a, i) =>
      (a.publicKeys ?? []).flatMap((k, j) => (k.id === undefined ? [] : [{ value: k.id, path: ["accounts", i, "publicKeys", j, "id"] }])),
    ),
    "public key id",
  );
  accounts.forEach((account, i) => checkAccountKeys(account, i, ctx));
}

function checkAccountKeys(account: z.output<typeof accountSchema>, index: number, ctx: z.RefinementCtx): void {
  const userIds = new Set(account.users.map((u) => u.id));
  (account.publicKeys ?? []).forEach((key, j) => {
    const path = ["accounts", index, "publicKeys", j];
    if (key.userId !== undefined && !userIds.has(key.userId)) {
      ctx.addIssue({ code: "custom", path: [...path, "userId"], message: `no user with id ${key.userId} in this account` });
    }
    const parsed = parseSshPublicKey(key.publicKey);
    if (!parsed.ok) {
      // The parser speaks of the API's field name; here the field is publicKey.
      const message = `publicKey ${parsed.rule}`;
      ctx.addIssue({ code: "custom", path: [...path, "publicKey"], message });
    } else if (key.name === undefined && parsed.key.comment === "") {
      ctx.addIssue({ code: "custom", path: [...path, "name"], message: "name is required when publicKey has no comment" });
    }
  });
}

/** `accounts[0].users[1].apiKey` style, the way people read JSON. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    text += typeof segment === "number" ? `[${segment}]` : `${text === "" ? "" : "."}${String(segment)}`;
  }
  return text === "" ? "(root)" : text;
}

export class FixturesError extends Error {
  override name = "FixturesError";
}

export function validateFixtures(input: unknown, source = "fixtures"): ValidFixtures {
  const result = fixturesSchema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  throw new FixturesError(`invalid ${source}: ${details.join("; ")}`);
}

export function loadFixturesFile(path: string): ValidFixtures {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new FixturesError(`cannot read fixtures file ${path}: ${code}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FixturesError(`fixtures file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return validateFixtures(json, `fixtures file ${path}`);
}

/** A fresh key per call, so no usable credential is ever written into the source. */
function randomApiKey(): string {
  return randomBytes(20).toString("hex");
}

/**
 * A small, realistic account, so the main command and a first `etl-emulator` show something
 * meaningful: packages that succeed and fail, connections of each kind, billing history.
 */
export function defaultFixtures(): ValidFixtures {
  return validateFixtures({
    accounts: [
      {
        id: 1,
        uid: "acme-data",
        users: [
          { id: 1, name: "Dana Platform", email: "dana@example.com", apiKey: randomApiKey() },
          { id: 2, name: "Lee Analyst", email: "lee@example.com", apiKey: randomApiKey() },
        ],
        packages: [
          {
            id: 101,
            name: "orders-daily-rollup",
            description: "Rolls up yesterday's orders per region into the warehouse",
            variables: { run_date: "$yesterday", region: "all" },
            run: {
              seconds: 30,
              outcome: "completed",
              outputs: [
                { name: "orders_by_region", records: 18240, component: { name: "warehouse_out", type: "database_destination", fields: ["region", "day", "orders", "revenue"] } },
                { name: "rejected_rows", records: 12, component: { name: "rejects_out", type: "cloud_storage_destination", fields: ["row", "reason"] } },
              ],
            },
          },
          {
            id: 102,
            name: "crm-contacts-sync",
            description: "Copies CRM contacts into the warehouse",
            run: { seconds: 20, outcome: "failed", error: "Source component 'crm_contacts': the CRM connection's token has expired", outputs: [] },
          },
          {
            id: 103,
            name: "legacy-export",
            description: "Nightly export replaced by orders-daily-rollup",
            status: "archived",
            run: { seconds: 5, outcome: "completed", outputs: [{ name: "export", records: 100 }] },
          },
        ],
        clusters: [
          { id: 201, name: "shared-sandbox", description: "For trying packages out", type: "sandbox", nodes: 1, terminateOnIdle: true, timeToIdle: 1800 },
        ],
        connections: [
          { id: 301, name: "warehouse", type: "postgres" },
          { id: 302, name: "raw-events", type: "s3" },
          { id: 303, name: "reporting-replica", type: "mysql" },
          {
            id: 304,
            name: "web-analytics",
            type: "web_analytics",
            webAnalyticsAccounts: [
              { id: "4711", name: "acme.example storefront" },
              { id: "4712", name: "acme.example blog" },
            ],
          },
          {
            id: 305,
            name: "ads",
            type: "ads_platform",
            adsPlatformCustomers: [{ id: "123-456-7890", name: "Acme Brand Campaigns", currency: "USD" }],
          },
          {
            id: 306,
            name: "crm",
            type: "crm_platform",
            crmObjects: [
              { name: "Account", label: "Accounts" },
              { name: "Contact", label: "Contacts" },
              { name: "Opportunity", label: "Opportunities" },
            ],
          },
        ],
        connectionGroups: [{ id: 401, name: "warehouses", description: "Where curated data lands", connectionIds: [301, 303] }],
        invoices: [
          { id: "in_2026_09", date: "2026-09-30", amount: 1250.0, currency: "USD", status: "paid" },
          { id: "in_2026_10", date: "2026-10-31", amount: 1312.5, currency: "USD", status: "open" },
        ],
        notifications: [
          { userId: 1, title: "Job 'crm-contacts-sync' failed", body: "The CRM connection's token has expired." },
          { userId: 1, title: "Cluster 'shared-sandbox' terminated after being idle", read: true },
        ],
      },
    ],
    productUpdates: [
      { id: 1, title: "Cluster autoscaling is generally available", published_at: "2026-11-02T09:00:00Z" },
      { id: 2, title: "New CRM source: custom objects", published_at: "2026-10-15T09:00:00Z" },
      { id: 3, title: "Job logs now stream while a job runs", published_at: "2026-09-20T09:00:00Z" },
    ],
  });
}
