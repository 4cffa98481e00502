import { z } from "zod";
import { isConnectionType, type ConnectionType } from "../../../contract/connection-types";
import { connectionKindOf, isListingKind } from "../../../contract/limits";
import { HttpError } from "../../http";
import { jsonObject, positiveId, seedRows, type FixtureAccount } from "../../fixtures/account";
import { fixtureProblem } from "../../fixtures/errors";
import type { Store } from "../../store";
import { accountFixtures } from "../area";
import { readNewSettings, settingsOf } from "./attributes";
import { CONNECTIONS, LISTINGS, type Attributes, type SecretTraces } from "./model";

/**
 * `connections` of an account; the listing kinds carry the items their listing returns.
 * `attributes`, when given, are the type's attributes as a create takes them, checked by the same
 * rules; without them a connection has its type's defaults, as if made in the web application.
 */

const connectionSchema = z.object({
  id: positiveId,
  name: z.string().min(1),
  /** Database and cloud-storage connections go into groups; the three listings serve others. */
  type: z.string().refine(isConnectionType, "must be a connection type (contract/connection-types.ts)"),
  attributes: jsonObject.optional(),
  webAnalyticsAccounts: z.array(jsonObject).optional(),
  adsPlatformCustomers: z.array(jsonObject).optional(),
  crmObjects: z.array(jsonObject).optional(),
});

type ConnectionFixture = z.output<typeof connectionSchema>;

/** Items given under another kind's field would never be served: a fixture mistake worth reporting. */
function listingItemsOf(account: FixtureAccount, fixture: ConnectionFixture, index: number): Record<string, unknown>[] {
  const kind = connectionKindOf(fixture.type);
  for (const listing of Object.values(LISTINGS)) {
    if (fixture[listing.fixtureField] !== undefined && listing.kind !== kind) {
      const detail = `only ${listing.kind} connections list ${listing.items}, this one is ${fixture.type}`;
      throw fixtureProblem(account, `connections[${index}].${listing.fixtureField}`, detail);
    }
  }
  return isListingKind(kind) ? (fixture[LISTINGS[kind].fixtureField] ?? []) : [];
}

function settingsOfFixture(account: FixtureAccount, fixture: ConnectionFixture, index: number): { attributes: Attributes; secrets: SecretTraces } {
  if (fixture.attributes === undefined) return settingsOf(fixture.type as ConnectionType, {});
  try {
    const { attributes, secrets } = readNewSettings(fixture.type as ConnectionType, { ...fixture.attributes, name: fixture.name });
    return { attributes, secrets };
  } catch (error) {
    if (error instanceof HttpError) throw fixtureProblem(account, `connections[${index}].attributes`, error.message);
    throw error;
  }
}

function seedConnections(store: Store, account: FixtureAccount, connections: ConnectionFixture[]): void {
  seedRows(store, CONNECTIONS, connections, (fixture, index, now) => {
    // Ids come from one sequence across accounts; a reused id would overwrite another row.
    if (store.list(CONNECTIONS).some((row) => row.id === fixture.id)) {
      throw fixtureProblem(account, `connections[${index}].id`, `duplicate connection id ${fixture.id}`);
    }
    const { id, name, type } = fixture;
    const settings = settingsOfFixture(account, fixture, index);
    return { id, accountId: account.id, name, type, ...settings, listingItems: listingItemsOf(account, fixture, index), createdAt: now, updatedAt: now };
  });
}

export const connectionFixtures = accountFixtures({
  field: "connections",
  schema: z.array(connectionSchema).default([]),
  seed: seedConnections,
});
