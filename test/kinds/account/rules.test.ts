/** Account's check and diff: region ids from the catalogue, slugs by the contract's rule, renames in place. */
import { describe, expect, it } from "vitest";
import type { ManagedAccountRecord } from "../../../provider/api/accounts";
import { tableOperations, type AccountInputs } from "../../../provider/resources/account/fields";
import { accountImplementation } from "../../../provider/resources/account/implementation";
import type { ApiRequest } from "../../../provider/client/http";
import { NotFoundError } from "../../../provider/client/errors";
import type { OperationContext } from "../../../provider/context";
import { noCallsContext } from "../../support/context";
import { expectedFailure } from "../check-failure";

const check = (news: Record<string, unknown>) => accountImplementation.check({}, news);
const REGION = "amazon-web-services::us-east-1";
const parsed = (inputs: Record<string, unknown>) => tableOperations.inputSchema.parse(inputs) as AccountInputs;

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

/**
 * A context whose service knows the caller as user `userId` and holds `accounts` (slug → record)
 * for them; every request is logged as "METHOD path".
 */
function serviceAs(userId: number, accounts: Record<string, ManagedAccountRecord>, sent: string[] = []): () => OperationContext {
  const notFound = (req: ApiRequest) =>
    new NotFoundError({ status: 404, request: { method: req.method, url: String(req.path), headers: {} }, serviceMessage: "Not found" });
  const request = async (req: ApiRequest) => {
    sent.push(`${req.method} ${req.path}`);
    const answer = (body: unknown) => ({ status: 200, headers: {}, body });
    if (req.path === "/user") return answer({ id: userId, name: null, email: `user${userId}@example.com` });
    if (req.path === "/accounts") return answer(Object.values(accounts));
    const slug = decodeURIComponent(String(req.path).replace("/accounts/", ""));
    if (accounts[slug] === undefined) throw notFound(req);
    if (req.method === "DELETE") delete accounts[slug];
    return answer(accounts[slug] ?? {});
  };
  const context = { ...noCallsContext(), request: request as OperationContext["request"] };
  return () => context;
}

describe("Account diff and delete", () => {
  it("updates a new name, region or slug in place, and leaves a slug it does not manage alone", async () => {
    const olds = tableOperations.outputs(record(), parsed({ name: "staging", region: REGION }));
    const owner = serviceAs(70, {});
    expect(await accountImplementation.diff("9", olds, parsed({ name: "staging", region: REGION }), owner)).toMatchObject({ changes: false });
    const renamed = await accountImplementation.diff("9", olds, parsed({ name: "staging", region: REGION, slug: "staging-eu" }), owner);
    expect(renamed).toMatchObject({ changes: true, replaces: [] });
    expect((await accountImplementation.diff("9", olds, parsed({ name: "prod", region: REGION }), owner)).replaces).toEqual([]);
  });

  it("records the user who reached it, and stops a preview under the key of a user who cannot see it, naming both", async () => {
    const olds = tableOperations.outputs(record(), parsed({ name: "staging", region: REGION }));
    expect(olds.userId).toBe(70);
    const sent: string[] = [];
    const stranger = accountImplementation.diff("9", olds, parsed({ name: "staging", region: REGION }), serviceAs(71, {}, sent));
    await expect(stranger).rejects.toThrow(
      /^account staging \(number 9\) was reached with user 70's API key, but the provider's API key \(etl:apiKey\) is now user 71's \(user71@example.com\), who is not a member of it/,
    );
    // Another member of the account reaches it, and goes on.
    const member = serviceAs(72, { staging: record({ is_owner: false }) });
    expect(await accountImplementation.diff("9", olds, parsed({ name: "staging", region: REGION }), member)).toMatchObject({ changes: false });
  });

  it("deletes an account renamed out of band by its new slug, and stops rather than report a delete a non-member's 404 hides", async () => {
    const olds = tableOperations.outputs(record(), parsed({ name: "staging", region: REGION }));
    const accounts = { "staging-renamed": record({ account_id: "staging-renamed" }) };
    const sent: string[] = [];
    await accountImplementation.delete(serviceAs(70, accounts, sent)(), "9", olds);
    expect(sent).toEqual(["DELETE /accounts/staging", "GET /accounts", "DELETE /accounts/staging-renamed"]);
    expect(accounts).toEqual({});
    await expect(accountImplementation.delete(serviceAs(71, {})(), "9", olds)).rejects.toThrow(
      /who is not a member of it, and the service shows an account to its members only; nothing was changed/,
    );
    // Under the key of the user who reached it, an account gone is deleted.
    await expect(accountImplementation.delete(serviceAs(70, {})(), "9", olds)).resolves.toBeUndefined();
  });

  it("refuses to delete an account the caller does not own, without a call", async () => {
    const olds = tableOperations.outputs(record({ is_owner: false, owner_id: 99 }), parsed({ name: "staging", region: REGION }));
    await expect(accountImplementation.delete(noCallsContext(), "9", olds)).rejects.toThrow(/account staging \(9\) can be deleted by its owner only/);
  });
});
