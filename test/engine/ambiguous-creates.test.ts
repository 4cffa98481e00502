/**
 * Every kind's create whose outcome is unknown, through the real engine on both surfaces: one
 * program declares one object of each kind of the registry, built from the kind's reference
 * example, and every POST of the `up` is applied by the service and then its connection dropped
 * (`reset_after`). Each create must look for what its POST made and adopt it: exactly one object
 * of each kind is made, its id is the one in state, and no POST is sent twice. A singleton (the
 * service holds one and create takes it over with a PUT) sends no POST: it is only in the program.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCE_KINDS } from "pulumi-etl/plugin";
import { createTestStack, type TestStack } from "../support/engine";
import { KIND_TESTS, type StateDump, type StateRow } from "../kinds";
import { EXAMPLE_ACCOUNT, exampleInputs, isSingleton } from "../support/examples";
import { startTestEmulator, type Emulator } from "../support/service";
import { declare, kindOfType, SURFACES } from "../support/surfaces";

/** The kinds a create makes with a POST; a singleton's create is a PUT of the one the service holds, which no POST can make twice. */
const MADE_BY_A_POST = RESOURCE_KINDS.filter((kind) => !isSingleton(kind));

describe.each(SURFACES)("every kind's create, its connection dropped after the POST was applied (%s)", { timeout: 300_000 }, (surface) => {
  let service: Emulator;
  let test: TestStack;
  let before: StateDump;
  const output: string[] = [];
  /** The state after the up, exported once. */
  let recorded: Array<{ type: string; id?: string }> = [];
  const inStateOf = (kind: string) => recorded.filter((r) => kindOfType(r.type) === kind);

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 100, account: EXAMPLE_ACCOUNT });
    test = await createTestStack(
      `ambiguous-${surface}`,
      async () => {
        for (const kind of RESOURCE_KINDS) declare(surface, kind, kind.toLowerCase(), exampleInputs(kind));
      },
      service,
      {},
      { plugin: surface === "plugin" },
    );
    before = await service.state();
    await service.resetRequests();
    await service.faults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], seed: 1 });
    try {
      await test.stack.up({ onOutput: (text) => output.push(text) });
    } finally {
      await service.faults();
    }
    recorded = (await test.stack.exportStack()).deployment.resources ?? [];
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it.each(MADE_BY_A_POST)("%s: one object made, by one POST whose answer was lost, and it is the one in state", async (kind) => {
    const inState = inStateOf(kind);
    expect(inState).toHaveLength(1);
    const known = new Set(KIND_TESTS[kind].rows(before).map((row) => row.id));
    const made = KIND_TESTS[kind].rows(await service.state()).filter((row) => !known.has(row.id) && madeByTheStack(row));
    expect(made.map((row) => String(row.id))).toEqual([String(inState[0].id)]);
  });

  it("every POST of the up was a create, sent once and answered by a dropped connection", async () => {
    const posts = (await service.requests()).filter((r) => r.method === "POST");
    expect(posts).toHaveLength(MADE_BY_A_POST.length);
    expect(posts.every((r) => r.status === 0)).toBe(true);
    expect(new Set(posts.map((r) => r.path)).size).toBe(MADE_BY_A_POST.length);
  });

  it.each(RESOURCE_KINDS.filter(isSingleton))("%s, which no POST makes, is taken over all the same and is in state once", async (kind) => {
    const inState = inStateOf(kind);
    expect(inState).toHaveLength(1);
    expect(KIND_TESTS[kind].rows(await service.state()).map((row) => String(row.id))).toContain(String(inState[0].id));
  });

  it.each(MADE_BY_A_POST)("%s: the adoption is reported, naming the object", async (kind) => {
    const [resource] = inStateOf(kind);
    const words = kind
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .replace(/ run$/, "( run)?");
    expect(output.join("")).toMatch(new RegExp(`found ${words} ${resource.id} created by it, adopting it`));
  });
});

/**
 * Objects a delivery makes for itself (its pipeline package, its clusters and their jobs) are the
 * service's, not the stack's.
 */
function madeByTheStack(row: StateRow): boolean {
  return row.delivery == null && !/^delivery-\d+/.test(typeof row.name === "string" ? row.name : "");
}
