import { expect } from "vitest";
import type { Fixtures, RunningEmulator } from "../../../emulator";
import { ACCEPT, basic, closedAfterEach, DANA_KEY, OTHER_KEY, readJson, startTestEmulator, testFixtures } from "../helpers";

/** What the tests of members, the host-root user and accounts share (facts, "Members", "Users", "Accounts"). */

export const ADA_KEY = "test-key-ada-0005";
export const UNAUTHORIZED = "Invalid or missing credentials.";

export const MEMBER_FIELDS = [
  "id",
  "name",
  "display_name",
  "email",
  "gravatar_email",
  "avatar_url",
  "location",
  "confirmed",
  "confirmed_at",
  "role",
  "owner",
  "created_at",
  "updated_at",
  "url",
  "html_url",
];

/** acme-data: Dana owns it, Lee is a member, Ada an admin, Olu (owner of globex) a member too. */
function memberFixtures(): Fixtures {
  const fixtures = testFixtures();
  const [acme, globex] = fixtures.accounts!;
  acme!.users.push(
    { id: 5, name: "Ada Admin", email: "ada@example.com", apiKey: ADA_KEY, role: "admin" },
    { id: 3, name: "Olu Other", email: "olu@example.org", apiKey: OTHER_KEY },
  );
  return { accounts: [acme!, globex!] };
}

/** Starts an emulator with the members above, closed after each test of the file that asks for this. */
export function memberServices(): () => Promise<RunningEmulator> {
  const started = closedAfterEach();
  return async () => started(await startTestEmulator(memberFixtures()));
}

/** A request to the host root (`/user`, `/accounts`), outside `{base_url}`. */
export function root(emulator: RunningEmulator, path: string, key = DANA_KEY): Promise<Response> {
  return fetch(`${emulator.url}${path}`, { headers: { Accept: ACCEPT, Authorization: basic(key) } });
}

export async function ok(response: Response, status = 200): Promise<any> {
  expect(response.status).toBe(status);
  return readJson(response);
}

export const ids = (members: { id: number }[]) => members.map((member) => member.id);
