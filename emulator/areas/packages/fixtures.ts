import { z } from "zod";
import { dataFlowSchema } from "../../../contract/data-flow";
import { JOB_RUN_OUTCOMES, PACKAGE_STATUSES } from "../../../contract/vocabularies";
import { defaultUserId, positiveId, seedRows, type FixtureAccount } from "../../fixtures/account";
import type { Store } from "../../store";
import { accountFixtures } from "../area";
import { FLOW_TYPES, PACKAGE_DEFAULTS, PACKAGES, type PackageRun } from "./model";

/** `packages` of an account, with `run`: how every job of a package without a flow behaves. */

const packageRunSchema = z.object({
  seconds: z.number().nonnegative().default(10),
  outcome: z.enum(JOB_RUN_OUTCOMES).default("completed"),
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
}) satisfies z.ZodType<PackageRun>;

const packageSchema = z.object({
  id: positiveId,
  name: z.string().min(1),
  description: z.string().default(""),
  status: z.enum(PACKAGE_STATUSES).default("active"),
  variables: z.record(z.string(), z.string()).default({}),
  ownerId: positiveId.optional(),
  flowType: z.enum(FLOW_TYPES).default(PACKAGE_DEFAULTS.flowType),
  /** A flow to run and validate (`contract/data-flow.ts`); without one, every job behaves as `run` says. */
  dataFlow: dataFlowSchema.optional(),
  run: packageRunSchema.default({ seconds: 10, outcome: "completed", outputs: [] }),
});

type PackageFixture = z.output<typeof packageSchema>;

function seedPackages(store: Store, account: FixtureAccount, packages: PackageFixture[]): void {
  seedRows(store, PACKAGES, packages, ({ ownerId, dataFlow, ...pkg }, _index, now) => ({
    ...pkg,
    dataFlow: dataFlow ?? null,
    version: 1,
    flowVersion: PACKAGE_DEFAULTS.flowVersion,
    packageVersion: "1.0",
    accountId: account.id,
    ownerId: ownerId ?? defaultUserId(account),
    createdAt: now,
    updatedAt: now,
  }));
}

export const packageFixtures = accountFixtures({
  field: "packages",
  schema: z.array(packageSchema).default([]),
  seed: seedPackages,
});
