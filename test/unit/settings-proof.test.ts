/**
 * The settings' proof's failure for a host that does not exist, as the provider's operations meet
 * it: the client's error (test/unit/policies/unreachable.test.ts) inside the proof's message.
 * How such a failure reaches `pulumi preview` and `up`, on both surfaces, is shown for a closed
 * port by test/engine/unreachable.test.ts.
 */
import { describe, expect, it } from "vitest";
import { configuredBy, processResources } from "../../provider/context";
import { settingsProven } from "../../provider/settings-proof";

const settings: Record<string, string> = {
  "etl:apiUrl": "https://nonexistent.invalid",
  "etl:accountId": "acme-test",
  "etl:apiKey": "unused-key",
  // A lookup that cannot be made now (EAI_AGAIN, with no DNS server) is tried for the budget.
  "etl:retryBudgetSeconds": "3",
};

describe("the settings' proof at a host that does not exist", () => {
  it("fails naming the account, etl:apiUrl, the host and what skips the check, and says nothing was sent", async () => {
    const context = configuredBy((key) => settings[key], processResources(), false)();
    const failure = await settingsProven(context).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    expect(message).toContain(`the provider's settings could not be checked against account "acme-test" at https://nonexistent.invalid: `);
    expect(message).toMatch(
      /could not reach https:\/\/nonexistent\.invalid \((ENOTFOUND\)|EAI_AGAIN\) for 3 s): nothing was sent; check etl:apiUrl \(the host name does not resolve/,
    );
    expect(message).toContain('etl:skipCredentialsValidation "true"');
    expect(message).not.toContain("unused-key");
  });
});
