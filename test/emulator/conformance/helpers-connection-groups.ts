/** What the connection group conformance files share: the accounts' groups and connections, and a group's shape. */
import { expect } from "vitest";
import type { Fixtures } from "../../../emulator";
import { CONNECTION_GROUP_FIELDS, connectionGroupRecord, type ConnectionGroupRecord } from "../../../provider/api/connection-groups";
import { startWithClient, testFixtures } from "../helpers";
import { useRunningService, type RunningService } from "./helpers-running";

export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const DANA = { name: "Dana Platform", email: "dana@example.com" };
export const LEE = { name: "Lee Analyst", email: "lee@example.com" };

export const WAREHOUSE = { id: 301, name: "warehouse", type: "postgres" };
export const RAW_EVENTS = { id: 302, name: "raw-events", type: "s3" };
export const REPLICA = { id: 303, name: "reporting-replica", type: "mysql" };

export function groupFixtures(): Fixtures {
  const base = testFixtures();
  const [acme, globex] = base.accounts;
  return {
    accounts: [
      {
        ...acme!,
        connections: [WAREHOUSE, RAW_EVENTS, REPLICA, { id: 304, name: "web-analytics", type: "web_analytics", webAnalyticsAccounts: [{ id: "4711" }] }],
        connectionGroups: [
          { id: 401, name: "warehouses", description: "Where curated data lands", connectionIds: [303, 301] },
          { id: 402, name: "landing", description: null, connectionIds: [302] },
        ],
      },
      {
        ...globex!,
        connections: [{ id: 351, name: "globex-db", type: "postgres" }],
        connectionGroups: [{ id: 451, name: "globex warehouses", description: "curated", connectionIds: [351] }],
      },
    ],
  };
}

/** Parses with the provider's schema and checks that no field beyond spec 2.7 appears. */
export function expectGroup(body: unknown): ConnectionGroupRecord {
  const group = connectionGroupRecord.parse(body);
  expect(Object.keys(body as object).sort()).toEqual([...CONNECTION_GROUP_FIELDS].sort());
  expect(group.created_at).toMatch(ISO_TIME);
  expect(group.updated_at).toMatch(ISO_TIME);
  return group;
}

/** An emulator with the groups' fixtures for each test of the file, closed after it. */
export function useGroupsService(): RunningService {
  return useRunningService(() => startWithClient(groupFixtures()), "each");
}
