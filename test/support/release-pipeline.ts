/**
 * The `Pipeline` of the release programs (test/release/programs, and the Go lifecycle program): a
 * component the plugin builds by `Construct` from the release's executable, its cron from the
 * stack's settings in the New Delhi time zone (UTC+05:30 all year), three nodes and a web hook
 * for failed runs. What the state and the service hold after each step of a release lifecycle.
 */
import { expect } from "vitest";
import type { UserMachine } from "./release";
import type { Emulator } from "./service";

/** The pipeline's cron as first set, and as the update sets it (`test:pipelineCron`). */
export const PIPELINE_CRON = { first: "0 6 * * *", updated: "30 7 * * 1" };

export interface PipelineIds {
  packageId: string;
  scheduleId: string;
  hookId: string;
}

/** The ids the program exports for its pipeline's children. */
export async function pipelineIds(machine: UserMachine): Promise<PipelineIds> {
  return pipelineIdsOf(JSON.parse((await machine.pulumi(["stack", "output", "--json"])).output) as Record<string, unknown>);
}

/** The pipeline's children's ids among a stack's outputs (their plain values). */
export function pipelineIdsOf(outputs: Record<string, unknown>): PipelineIds {
  const ids = { packageId: outputs.pipelinePackageId, scheduleId: outputs.pipelineScheduleId, hookId: outputs.pipelineHookId };
  for (const [name, id] of Object.entries(ids))
    if (!/^\d+$/.test(String(id))) throw new Error(`the stack's output for the pipeline's ${name} is ${JSON.stringify(id)}`);
  return { packageId: String(ids.packageId), scheduleId: String(ids.scheduleId), hookId: String(ids.hookId) };
}

type StateResource = { urn: string; type: string; parent?: string; id?: string };
/** A stack's state as `pulumi stack export` prints it. */
export type ExportedState = { deployment: { resources: StateResource[] } };

/** The state holds the component, with the Package, the Schedule and the Hook of those ids as its children. */
export async function expectPipelineInState(machine: UserMachine, ids: PipelineIds): Promise<void> {
  expectPipelineInExport(JSON.parse((await machine.pulumi(["stack", "export"])).output) as ExportedState, ids);
}

/** `expectPipelineInState` of a stack's exported state. */
export function expectPipelineInExport(state: ExportedState, ids: PipelineIds): void {
  const components = state.deployment.resources.filter((resource) => resource.type === "etl:index:Pipeline");
  expect(components).toHaveLength(1);
  const children = state.deployment.resources.filter((resource) => resource.parent === components[0]!.urn);
  expect(children.map(({ type, id }) => ({ type, id })).sort((a, b) => a.type.localeCompare(b.type))).toEqual([
    { type: "etl:index:Hook", id: ids.hookId },
    { type: "etl:index:Package", id: ids.packageId },
    { type: "etl:index:Schedule", id: ids.scheduleId },
  ]);
}

/** The service's schedule runs the package on three nodes, at the interval and from the first run the cron gives. */
export async function expectScheduleOfCron(service: Emulator, ids: PipelineIds, timing: { unit: string; startAt: string }): Promise<void> {
  const schedule = (await service.api("GET", `/schedules/${ids.scheduleId}`)).body;
  expect(schedule).toMatchObject({ name: "orders rollup", interval_amount: 1, interval_unit: timing.unit, status: "enabled" });
  expect(new Date(schedule.start_at).toISOString()).toBe(timing.startAt);
  expect(schedule.task).toMatchObject({ nodes: 3, packages: [{ package_id: ids.packageId }] });
}

/** The service's hook alerts a web address on failed jobs; the package is live. */
export async function expectHookAndPackage(service: Emulator, ids: PipelineIds): Promise<void> {
  expect((await service.api("GET", `/hooks/${ids.hookId}`)).body).toMatchObject({ type: "web", events: ["job.failed"], name: "orders rollup failures" });
  expect((await service.api("GET", `/packages/${ids.packageId}`)).body).toMatchObject({ name: "orders rollup" });
}

/** After destroy: no schedule, no hook, the package archived (the service keeps packages). */
export async function expectPipelineDestroyed(service: Emulator, ids: PipelineIds): Promise<void> {
  expect((await service.api("GET", `/schedules/${ids.scheduleId}`)).status).toBe(404);
  expect((await service.api("GET", `/hooks/${ids.hookId}`)).status).toBe(404);
  expect((await service.api("GET", `/packages/${ids.packageId}`)).body).toMatchObject({ status: "archived" });
}
