/**
 * A refresh of packages and nothing else, behind two pages of packages the account held before
 * them (another stack's, a history), reads the listing from the stack's oldest package however
 * the engine sends the reads: within ceil(N/100) + 2 calls and one page for the history besides
 * what the packages changed out of band need, with the engine's default parallelism, `--parallel 1` (each read waits for the
 * one before, so the reads seen are never more than one ahead of the pages) and `--parallel 64`.
 * One stack on each surface, 105 packages (two pages, still two after the one each loses), each
 * with its own two-component flow, refreshed three times, the service's clock at the speed
 * batched-reads.test.ts does not give that surface (100 there for the dynamic resources, 1 for
 * the plugin): each surface meets both speeds, each with the three parallelisms.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RefreshOptions } from "@pulumi/pulumi/automation";
import { createTestStack, type TestStack } from "../support/engine";
import { startTestEmulator, type Emulator } from "../support/service";
import { declare, SURFACES, type Surface } from "../support/surfaces";

const COUNT = 105;
/** Packages the account held before the stacks': two pages, more than the call budget of one read alone affords. */
const HISTORY = 200;
const SOURCE = 601;
const DESTINATION = 602;
const FAST_STATE = { PULUMI_SKIP_CHECKPOINTS: "true" };
/** The service's clock by surface: the other speed than batched-reads.test.ts's for that surface. */
const SPEED: Record<Surface, number> = { dynamic: 1, plugin: 100 };
/**
 * The history costs one page at most, as the jobs' and clusters' (batched-reads.test.ts): the
 * listing's first page, or room for a package the engine reads after the stack's pages began
 * though made before their start (`--parallel 1` reads about in the order of creation, not quite).
 */
const HISTORY_PAGE = 1;
/** Besides the listing, a package changed out of band is read whole (3 calls); one deleted, by its own GET. */
const CHANGED_COST = 3;
const DELETED_COST = 1;

const range = (count: number) => Array.from({ length: count }, (_, i) => i);

/** Only packages, as a program with nothing else declares them. */
function program(surface: Surface) {
  return async () => {
    for (const i of range(COUNT)) {
      declare(surface, "Package", `pkg-${i}`, {
        name: `${surface} package ${i}`,
        description: `copies orders into copy_${i}`,
        dataFlow: {
          components: [
            { name: "rows", type: "source", connection: { id: String(SOURCE) }, table: "orders" },
            { name: "copy", type: "destination", connection: { id: String(DESTINATION) }, table: `copy_${i}` },
          ],
          edges: [{ from: "rows", to: "copy" }],
        },
      });
    }
  };
}

const postgres = (id: number, host: string) => ({
  id,
  name: host,
  type: "postgres",
  attributes: { host, database: "analytics", username: "etl", password: "pw" },
});

describe(`refresh of ${COUNT} packages alone, behind ${HISTORY} older ones`, { timeout: 600_000 }, () => {
  let service: Emulator;
  const stacks = {} as Record<Surface, { test: TestStack; ids: string[]; count: number }>;

  beforeAll(async () => {
    service = await startTestEmulator({
      account: {
        connections: [postgres(SOURCE, "source.example.com"), postgres(DESTINATION, "destination.example.com")],
        packages: range(HISTORY).map((i) => ({ id: i + 1, name: `older ${i}` })),
      },
    });
    // One stack after the other, as one account holds them: the plugin's packages stand behind the dynamic resources' too.
    for (const surface of SURFACES) {
      const test = await createTestStack(`alone-${surface}`, program(surface), service, FAST_STATE, { plugin: surface === "plugin" });
      await test.stack.up();
      const resources: Array<{ urn: string; id?: string }> = (await test.stack.exportStack()).deployment.resources ?? [];
      const ids = range(COUNT).map((i) => resources.find((resource) => resource.urn.endsWith(`::pkg-${i}`))!.id!);
      stacks[surface] = { test, ids, count: COUNT };
    }
  }, 600_000);

  afterAll(async () => {
    for (const surface of SURFACES) stacks[surface]?.test.dispose();
    await service?.emulator.close();
  });

  /** A refresh within the packages' bound, its calls every one a package's; the summary of its changes. */
  async function refresh(surface: Surface, options: RefreshOptions, drift: { changed: number; deleted: number }) {
    const stack = stacks[surface];
    await service.resetRequests();
    const refreshed = await stack.test.stack.refresh(options);
    const calls = await service.calls();
    const bound = Math.ceil(stack.count / 100) + 2 + HISTORY_PAGE + drift.changed * CHANGED_COST + drift.deleted * DELETED_COST;
    expect(
      calls.filter((call) => !call.startsWith("GET /packages")),
      calls.join(", "),
    ).toEqual([]);
    expect(calls.length, calls.join(", ")).toBeLessThanOrEqual(bound);
    stack.count -= drift.deleted;
    return refreshed.summary.resourceChanges;
  }

  for (const surface of SURFACES) {
    const on = surface === "plugin" ? "the plugin" : "the dynamic resources";
    describe(`${on}, the service's clock at speed ${SPEED[surface]}`, () => {
      beforeAll(() => service.setSpeed(SPEED[surface]));

      it("default parallelism: one package's description edited and another deleted out of band, both reported", async () => {
        const { ids } = stacks[surface];
        const [edited, deleted] = [3, 4];
        expect((await service.api("PUT", `/packages/${ids[edited]}`, { description: "edited by hand" })).status).toBe(200);
        expect((await service.api("DELETE", `/packages/${ids[deleted]}`)).status).toBe(200);
        const before = stacks[surface].count;
        expect(await refresh(surface, {}, { changed: 1, deleted: 1 })).toEqual({ same: before - 2 + 1, update: 1, delete: 1 });
        const resources: Array<{ id?: string; outputs?: any }> = (await stacks[surface].test.stack.exportStack()).deployment.resources ?? [];
        expect(resources.find((resource) => resource.id === ids[edited])?.outputs.description).toBe("edited by hand");
        expect(resources.find((resource) => resource.id === ids[deleted])).toBeUndefined();
      });

      it("--parallel 1: every package unchanged", async () => {
        expect(await refresh(surface, { parallel: 1 }, { changed: 0, deleted: 0 })).toEqual({ same: stacks[surface].count + 1 });
      });

      it("--parallel 64: every package unchanged", async () => {
        expect(await refresh(surface, { parallel: 64 }, { changed: 0, deleted: 0 })).toEqual({ same: stacks[surface].count + 1 });
      });
    });
  }
});
