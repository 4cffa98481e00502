/**
 * Replacement of every kind, on both surfaces, with one program of each kind's reference example:
 * a change of an input that forces replacement (the kinds that have one, from the registry's field
 * tables) makes a new object and ends the old one, and so does `pulumi up --replace <urn>` of
 * every kind, whether or not it has such an input. The order is the service's: a key, a name or
 * an email it holds once is deleted first; an object the replacement takes over (a watch) is
 * left in place by the original's delete. State and service agree after each, and the next preview is empty.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { RESOURCE_KINDS, type ResourceKind } from "pulumi-etl/plugin";
import { RESOURCES, type ResourceDeclaration } from "../../provider/resources/registry";
import { createTestStack, failureOf, type TestStack } from "../support/engine";
import { KIND_TESTS, type StateRow } from "../kinds";
import { EXAMPLE_ACCOUNT, exampleInputs, isSingleton } from "../support/examples";
import { startTestEmulator, type Emulator } from "../support/service";
import { declare, kindOfType, SURFACES, typeOf } from "../support/surfaces";

/** Each kind's change of its example that forces replacement, where it has one (its entry's `replacingChange`). */
const replacingChange = (kind: ResourceKind): Record<string, unknown> | undefined => {
  const change = KIND_TESTS[kind].replacingChange;
  return change === "none" ? undefined : change;
};

const replacingInputs = (kind: ResourceKind): string[] =>
  Object.entries(RESOURCES[kind].tableOperations.table as Record<string, { onChange?: string }>).flatMap(([name, field]) =>
    field.onChange === "replace" ? [name] : [],
  );

const CHANGED_KINDS = RESOURCE_KINDS.filter((kind) => replacingChange(kind) !== undefined);

/**
 * What the engine's diagnostics say of one resource: the lines under its `type (name):` heading, up
 * to the next resource's heading.
 */
function diagnosticsOf(output: string, type: string, name: string): string {
  const lines = output.split("\n");
  const start = lines.findIndex((line) => line.trim() === `${type} (${name}):`);
  if (start === -1) return "";
  const end = lines.findIndex((line, i) => i > start && /^\S+ \(.*\):$/.test(line.trim()));
  return lines.slice(start + 1, end === -1 ? undefined : end).join("\n");
}

/** The kinds whose account holds a name, a key or an email once, so a replacement deletes the original first. */
const deletedFirst = (kind: ResourceKind): boolean => (RESOURCES[kind] as ResourceDeclaration).deleteBeforeReplace === true;

describe("replacement tables", () => {
  it("a change is given for exactly the kinds with an input that forces replacement, and changes such an input", () => {
    expect(CHANGED_KINDS).toEqual(RESOURCE_KINDS.filter((kind) => replacingInputs(kind).length > 0));
    for (const kind of CHANGED_KINDS)
      expect(
        Object.keys(replacingChange(kind)!).some((name) => replacingInputs(kind).includes(name)),
        kind,
      ).toBe(true);
  });

  it("the old object is taken over again for exactly the singletons, which the service holds rather than makes", () => {
    expect(RESOURCE_KINDS.filter((kind) => KIND_TESTS[kind].oldObject === "taken over again")).toEqual(RESOURCE_KINDS.filter(isSingleton));
  });
});

describe.each(SURFACES)("replacement of every kind (%s)", { timeout: 600_000 }, (surface) => {
  let service: Emulator;
  let test: TestStack;
  let changed = false;
  let optionSet = true;
  let ids: Record<string, string> = {};

  const rows = async (kind: ResourceKind): Promise<StateRow[]> => KIND_TESTS[kind].rows(await service.state());
  const idsInState = async (): Promise<Record<string, string>> =>
    Object.fromEntries(
      ((await test.stack.exportStack()).deployment.resources ?? []).flatMap((r: { type: string; id: string }) => {
        const kind = kindOfType(r.type);
        return kind === undefined ? [] : [[kind, String(r.id)]];
      }),
    );

  /**
   * The new object is on the service, and the old one deleted, ended or kept as its kind says; a
   * singleton's replacement is the same object, taken over again.
   */
  async function expectReplaced(kind: ResourceKind, before: string, after: string): Promise<void> {
    const onService = await rows(kind);
    expect(
      onService.some((row) => String(row.id) === after),
      `${kind} ${after} on the service`,
    ).toBe(true);
    const fate = KIND_TESTS[kind].oldObject;
    if (fate === "taken over again") return void expect(after, `${kind}, a singleton, is the same object`).toBe(before);
    expect(after, kind).not.toBe(before);
    const old = onService.find((row) => String(row.id) === before);
    if (fate === "deleted") expect(old, `${kind} ${before} deleted`).toBeUndefined();
    else if (fate === "kept") expect(old, `${kind} ${before} kept`).toBeDefined();
    else expect(old?.status, `${kind} ${before}`).toBe(fate.status);
  }

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 100, account: EXAMPLE_ACCOUNT });
    test = await createTestStack(
      `replace-${surface}`,
      async () => {
        for (const kind of RESOURCE_KINDS) {
          const inputs = { ...exampleInputs(kind), ...(changed ? replacingChange(kind) : {}) };
          // What the dynamic resources' classes default to, a plugin program sets itself: the engine
          // asks no provider on `up --replace`, so the option alone says to delete first.
          const options = surface === "plugin" && optionSet && deletedFirst(kind) ? { deleteBeforeReplace: true } : undefined;
          declare(surface, kind, kind.toLowerCase(), inputs, options);
        }
      },
      service,
      {},
      { plugin: surface === "plugin" },
    );
    await test.stack.up();
    ids = await idsInState();
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("a changed input that forces replacement replaces the object of each kind that has one, and nothing else", async () => {
    changed = true;
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ replace: CHANGED_KINDS.length, same: RESOURCE_KINDS.length - CHANGED_KINDS.length + 1 });
    const after = await idsInState();
    for (const kind of CHANGED_KINDS) await expectReplaced(kind, ids[kind]!, after[kind]!);
    for (const kind of RESOURCE_KINDS.filter((k) => !CHANGED_KINDS.includes(k))) expect(after[kind], kind).toBe(ids[kind]);
    ids = after;
    await test.stack.preview({ expectNoChanges: true });
  });

  // Only a plugin program can leave the option out: the dynamic resources' classes set it.
  if (surface === "plugin")
    it(`up --replace of each kind the service holds once (${RESOURCE_KINDS.filter(deletedFirst).join(", ")}) without the deleteBeforeReplace option fails for each saying to set it, and changes nothing`, async () => {
      const kinds = RESOURCE_KINDS.filter(deletedFirst);
      optionSet = false;
      onTestFinished(() => {
        optionSet = true;
      });
      const before = await idsInState();
      const resources: Array<{ type: string; urn: string }> = (await test.stack.exportStack()).deployment.resources ?? [];
      const urns = kinds.map((kind) => resources.find((r) => kindOfType(r.type) === kind)!.urn);
      // --continue-on-error: the engine tries every replacement, where it would start no step after the first failure.
      const failure = await failureOf(test.stack.up({ replace: urns, continueOnError: true }));
      // Each replacement's create fails on its own: each resource's diagnostics give the advice.
      for (const kind of kinds) {
        const diagnostics = diagnosticsOf(failure, typeOf(surface, kind), kind.toLowerCase());
        expect(diagnostics, kind).toContain(
          "If it is this resource's original in a replacement (`pulumi up --replace`): the engine creates the new one before it deletes the original",
        );
        expect(diagnostics, kind).toContain(
          "set `deleteBeforeReplace: true` in this resource's options and run the replacement again. If not, this stack's state does not have",
        );
      }
      expect(await idsInState()).toEqual(before);
      for (const kind of kinds)
        expect(
          (await rows(kind)).some((row) => String(row.id) === before[kind]),
          kind,
        ).toBe(true);
    });

  it("up --replace of every kind makes a new object of each and ends the old one, and takes a singleton over again", async () => {
    const urns = ((await test.stack.exportStack()).deployment.resources ?? [])
      .filter((r: { type: string }) => kindOfType(r.type) !== undefined)
      .map((r: { urn: string }) => r.urn);
    expect(urns).toHaveLength(RESOURCE_KINDS.length);
    await service.resetRequests();
    const up = await test.stack.up({ replace: urns });
    expect(up.summary.resourceChanges).toMatchObject({ replace: RESOURCE_KINDS.length });
    const after = await idsInState();
    const calls = await service.calls();
    for (const kind of RESOURCE_KINDS) {
      const forced = KIND_TESTS[kind].forcedReplacement;
      if (forced === "new object") await expectReplaced(kind, ids[kind]!, after[kind]!);
      else {
        expect(calls, kind).toEqual(expect.arrayContaining(forced.sameId(ids[kind]!)));
        expect(after[kind], `${kind} keeps its id`).toBe(ids[kind]);
        expect(
          (await rows(kind)).some((row) => String(row.id) === after[kind]),
          `${kind} ${after[kind]} on the service`,
        ).toBe(true);
      }
    }
    await test.stack.preview({ expectNoChanges: true });
  });
});
