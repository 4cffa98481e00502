/**
 * Every kind's create whose outcome is unknown, through the real engine on both surfaces: one
 * program declares one object of each kind of the registry, built from the kind's reference
 * example, and every POST of the `up` is applied by the service and then its connection dropped
 * (`reset_after`). Each create must look for what its POST made and adopt it: exactly one object
 * of each kind is made, its id is the one in state, and no POST is sent twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCE_KINDS } from "pulumi-etl/plugin";
import { createTestStack, type TestStack } from "../support/engine";
import { EXAMPLE_ACCOUNT, exampleInputs, STATE_TABLE } from "../support/examples";
import { startLocalService, type LocalService } from "../support/service";
import { declare, kindOfType, SURFACES } from "../support/surfaces";

type Rows = Record<string, Array<{ id: number; name?: string; delivery?: unknown }>>;

describe.each(SURFACES)("every kind's create, its connection dropped after the POST was applied (%s)", { timeout: 300_000 }, (surface) => {
  let service: LocalService;
  let test: TestStack;
  let before: Rows;
  const output: string[] = [];
  const rows = async (): Promise<Rows> => (await service.state()).accounts[0];

  beforeAll(async () => {
    service = await startLocalService({ speed: 100, account: EXAMPLE_ACCOUNT });
    test = await createTestStack(
      `ambiguous-${surface}`,
      async () => {
        for (const kind of RESOURCE_KINDS) declare(surface, kind, kind.toLowerCase(), exampleInputs(kind));
      },
      service,
      {},
      { plugin: surface === "plugin" },
    );
    before = await rows();
    await service.resetRequests();
    await service.faults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], seed: 1 });
    try {
      await test.stack.up({ onOutput: (text) => output.push(text) });
    } finally {
      await service.faults();
    }
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it.each(RESOURCE_KINDS)("%s: one object made, by one POST whose answer was lost, and it is the one in state", async (kind) => {
    const inState = ((await test.stack.exportStack()).deployment.resources ?? []).filter((r: { type: string }) => kindOfType(r.type) === kind);
    expect(inState).toHaveLength(1);
    const known = new Set(before[STATE_TABLE[kind]]!.map((row) => row.id));
    const made = (await rows())[STATE_TABLE[kind]]!.filter((row) => !known.has(row.id) && madeByTheStack(row));
    expect(made.map((row) => String(row.id))).toEqual([String(inState[0].id)]);
  });

  it("every POST of the up was a create, sent once and answered by a dropped connection", async () => {
    const posts = (await service.requests()).filter((r) => r.method === "POST");
    expect(posts).toHaveLength(RESOURCE_KINDS.length);
    expect(posts.every((r) => r.status === 0)).toBe(true);
    expect(new Set(posts.map((r) => r.path)).size).toBe(RESOURCE_KINDS.length);
  });

  it.each(RESOURCE_KINDS)("%s: the adoption is reported, naming the object", async (kind) => {
    const [resource] = ((await test.stack.exportStack()).deployment.resources ?? []).filter((r: { type: string }) => kindOfType(r.type) === kind);
    const words = kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().replace(/ run$/, "( run)?");
    expect(output.join("")).toMatch(new RegExp(`found ${words} ${resource.id} created by it, adopting it`));
  });
});

/**
 * Objects a delivery makes for itself (its pipeline package, its clusters and their jobs) are the
 * service's, not the stack's.
 */
function madeByTheStack(row: { name?: string; delivery?: unknown }): boolean {
  return row.delivery == null && !/^delivery-\d+/.test(row.name ?? "");
}
