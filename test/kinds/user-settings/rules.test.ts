/** UserSettings' check and diff: time zones from the catalogue, both notification channels, settings left out never compared. */
import { describe, expect, it } from "vitest";
import type { UserSettingsRecord } from "../../../provider/api/users";
import type { RequestFn } from "../../../provider/client/http";
import type { OperationContext } from "../../../provider/context";
import { tableOperations, type UserSettingsInputs } from "../../../provider/resources/user-settings/fields";
import { userSettingsImplementation } from "../../../provider/resources/user-settings/implementation";
import { noCallsContext } from "../../support/context";
import { expectedFailure } from "../check-failure";

const check = (news: Record<string, unknown>) => userSettingsImplementation.check({}, news);
const parsed = (inputs: Record<string, unknown>) => tableOperations.inputSchema.parse(inputs) as UserSettingsInputs;

function record(overrides: Partial<UserSettingsRecord> = {}): UserSettingsRecord {
  return {
    id: 70,
    name: "Test User",
    email: "test@example.com",
    time_zone: "UTC",
    notification_settings: { email: true, web: true },
    receive_newsletter: false,
    created_at: "t",
    updated_at: "t",
    ...overrides,
  };
}

describe("UserSettings check", () => {
  it.each<[Record<string, unknown>, string, string]>([
    [{ timeZone: "Mars/Olympus" }, "timeZone", 'timeZone must be a time zone id such as "UTC"'],
    [{ receiveNewsletter: "yes" }, "receiveNewsletter", "must be a boolean, got a string"],
  ])("fails %j on %s", async (inputs, property, reason) => {
    const result = await check(inputs);
    expect(!result.ok && result.failures).toContainEqual(expectedFailure(inputs, property, reason));
  });

  it("refuses notification settings that leave a channel out", async () => {
    const result = await check({ notificationSettings: { email: true } });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(!result.ok && result.failures)).toContain("notificationSettings.web");
  });

  it("takes nothing at all: every setting left out is the user's own", async () => {
    expect(await check({})).toMatchObject({ ok: true });
  });
});

describe("UserSettings diff", () => {
  it("updates what the program sets, and never compares what it leaves out", async () => {
    const olds = tableOperations.outputs(record(), parsed({ timeZone: "UTC" }));
    expect(await userSettingsImplementation.diff("70", olds, parsed({ timeZone: "UTC" }))).toMatchObject({ changes: false });
    expect(await userSettingsImplementation.diff("70", olds, parsed({ timeZone: "UTC", receiveNewsletter: false }))).toMatchObject({ changes: false });
    expect(await userSettingsImplementation.diff("70", olds, parsed({ timeZone: "Pacific Time (US & Canada)" }))).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("deletes nothing: destroy leaves the settings as they are", async () => {
    await expect(userSettingsImplementation.delete(noCallsContext(), "70", tableOperations.outputs(record(), parsed({})))).resolves.toBeUndefined();
  });
});

describe("UserSettings under another user's API key", () => {
  const answer = record({ id: 71, time_zone: "Tokyo" });
  const otherUser = (): OperationContext => ({ ...noCallsContext(), request: (async () => ({ status: 200, headers: {}, body: answer })) as RequestFn });
  const olds = tableOperations.outputs(record(), parsed({ timeZone: "UTC" }));

  it("stops the refresh and the update rather than show or change that user's settings", async () => {
    await expect(userSettingsImplementation.read(otherUser(), "70", olds)).rejects.toThrow(
      /belongs to user 71, and this resource holds the settings of user 70/,
    );
    await expect(userSettingsImplementation.update(otherUser(), "70", olds, parsed({ timeZone: "Tokyo" }))).rejects.toThrow(/belongs to user 71/);
  });
});
