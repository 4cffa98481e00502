/** Account's check and diff: region ids from the catalogue, slugs by the contract's rule, renames in place. */
import { describe, expect, it } from "vitest";
import type { ManagedAccountRecord } from "../../provider/api/accounts";
import { fields, type AccountInputs } from "../../provider/resources/account/fields";
import { accountProvider } from "../../provider/resources/account/provider";
import { noCallsContext } from "../support/context";
import { expectedFailure } from "./check-failure";

const check = (news: Record<string, unknown>) => accountProvider.check({}, news);
const REGION = "amazon-web-services::us-east-1";
const parsed = (inputs: Record<string, unknown>) => fields.inputSchema.parse(inputs) as AccountInputs;

function record(overrides: Partial<ManagedAccountRecord> = {}): ManagedAccountRecord {
  return { id: 9, account_id: "staging", name: "staging", region: REGION, is_owner: true, owner_id: 70, created_at: "t", updated_at: "t", ...overrides };
}

describe("Account check", () => {
  it.each<[Record<string, unknown>, string, string]>([
    [{ name: "staging", region: "mars-north-1" }, "region", 'region must be a region id such as "amazon-web-services::us-east-1"'],
    [{ name: "staging", region: REGION, slug: "has space" }, "slug", "slug must be letters, digits, '.', '_' or '-', not starting with '.', '_' or '-'"],
    [{ name: "staging", region: REGION, slug: "api" }, "slug", "slug must not be api: that segment is the API's own"],
    [{ name: "staging", region: REGION, slug: "a".repeat(64) }, "slug", "slug must be at most 63 characters"],
    [{ name: "staging", region: REGION, billingEmail: "billing" }, "billingEmail", 'billingEmail must be an email address such as "billing@example.com"'],
    [{ region: REGION }, "name", "name is required"],
  ])("fails %j on %s", async (inputs, property, reason) => {
    const result = await check(inputs);
    expect(!result.ok && result.failures).toContainEqual(expectedFailure(inputs, property, reason));
  });

  it("takes a region id, a slug and an existing account's slug to adopt", async () => {
    expect(await check({ name: "staging", region: REGION, slug: "analytics-staging", importId: "analytics-staging" })).toMatchObject({
      ok: true,
      inputs: { slug: "analytics-staging", importId: "analytics-staging" },
    });
  });
});

describe("Account diff and delete", () => {
  it("updates a new name, region or slug in place, and leaves a slug it does not manage alone", async () => {
    const olds = fields.outputs(record(), parsed({ name: "staging", region: REGION }));
    expect(await accountProvider.diff("9", olds, parsed({ name: "staging", region: REGION }))).toMatchObject({ changes: false });
    const renamed = await accountProvider.diff("9", olds, parsed({ name: "staging", region: REGION, slug: "staging-eu" }));
    expect(renamed).toMatchObject({ changes: true, replaces: [] });
    expect((await accountProvider.diff("9", olds, parsed({ name: "prod", region: REGION }))).replaces).toEqual([]);
  });

  it("refuses to delete an account the caller does not own, without a call", async () => {
    const olds = fields.outputs(record({ is_owner: false, owner_id: 99 }), parsed({ name: "staging", region: REGION }));
    await expect(accountProvider.delete(noCallsContext(), "9", olds)).rejects.toThrow(/account staging \(9\) can be deleted by its owner only/);
  });
});
