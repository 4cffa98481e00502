/**
 * The settings' proof's failure, as the provider's operations meet it, for a host that does not
 * exist (the client's error, test/unit/policies/unreachable.test.ts, inside the proof's message)
 * and for the key of another account's user, against the emulator. How a failed proof
 * reaches `pulumi preview` and `up`, once and on the provider, is shown on both surfaces for a
 * closed port and a wrong key by test/engine/unreachable.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configuredBy, processResources } from "../../provider/context";
import { settingsProven } from "../../provider/settings-proof";
import { startTestEmulator, type Emulator } from "../support/service";
import { ELSEWHERE_ACCOUNT } from "../support/settings-proof";

/** The proof's failure for these settings, in a provider process of its own. */
async function proofFailure(settings: Record<string, string>): Promise<Error> {
  const context = configuredBy((key) => settings[key], processResources(), false)();
  const failure = await settingsProven(context).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(Error);
  return failure as Error;
}

const settings: Record<string, string> = {
  "etl:apiUrl": "https://nonexistent.invalid",
  "etl:accountId": "acme-test",
  "etl:apiKey": "unused-key",
  // A lookup that cannot be made now (EAI_AGAIN, with no DNS server) is tried for the budget.
  "etl:retryBudgetSeconds": "3",
};

describe("the settings' proof at a host that does not exist", () => {
  it("fails naming the account, etl:apiUrl, the host and what skips the check, and says nothing was sent", async () => {
    const { message } = await proofFailure(settings);
    expect(message).toContain(`the provider's settings could not be checked against account "acme-test" at https://nonexistent.invalid: `);
    expect(message).toMatch(
      /could not reach https:\/\/nonexistent\.invalid \((ENOTFOUND\)|EAI_AGAIN\) for 3 s): nothing was sent; check etl:apiUrl \(the host name does not resolve/,
    );
    expect(message).toContain('etl:skipCredentialsValidation "true"');
    expect(message).not.toContain("unused-key");
  });
});

describe("the settings' proof with the key of another account's user", () => {
  let service: Emulator;
  beforeAll(async () => {
    service = await startTestEmulator({ otherAccounts: [ELSEWHERE_ACCOUNT] });
  });
  afterAll(async () => {
    await service?.emulator.close();
  });

  it("fails with one call, naming etl:accountId, etl:apiKey and the account, never the key", async () => {
    const apiKey = ELSEWHERE_ACCOUNT.users[0]!.apiKey;
    await service.resetRequests();
    const { message } = await proofFailure({ "etl:apiUrl": service.url, "etl:accountId": service.accountId, "etl:apiKey": apiKey });
    expect(message).toContain(`account "acme-test" at ${service.url} is not one the API key's user can reach (404 Not Found): etl:accountId names an account`);
    expect(message).toContain("or etl:apiKey is the key of a user who is not a member of it");
    expect(await service.allCalls()).toEqual(["GET /accounts/acme-test"]);
    expect(message).not.toContain(apiKey);
  });
});
