/**
 * Schedule through the real engine against the emulator, its clock 60 times faster: up, an
 * unchanged preview and refresh while the schedule fires, an in-place update, a replacement for a
 * new start once it has run (and the failure when the stack has not seen it run), drift and a
 * schedule deleted out of band (each undone by one `up --refresh`), adoption by importId, destroy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { Schedule, type ScheduleArgs } from "pulumi-etl";
import { createTestStack, failureOf, type TestStack } from "../../support/engine";
import { startTestEmulator, type Emulator } from "../../support/service";

const SPEED = 60;
const PACKAGE = { id: 101, name: "orders-rollup", run: { seconds: 5 } };
const CLUSTER = { id: 201, name: "ready", nodes: 4 };

interface ServiceSchedule {
  id: number;
  name: string;
  status: string;
  execution_count: number;
  start_at: string;
  next_run_at: string | null;
}

describe("Schedule on the real engine", { timeout: 240_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let outputs: OutputMap;
  const onOutput = () => {};
  let args: ScheduleArgs = {
    name: "nightly",
    interval: { amount: 1, unit: "minutes" },
    task: { nodes: 2, packages: [{ packageId: "101", variables: { region: "'eu'" } }] },
  };
  let adoptedArgs: ScheduleArgs | undefined;

  const schedule = async (id: unknown): Promise<ServiceSchedule | undefined> => {
    const { status, body } = await service.api("GET", `/schedules/${String(id)}`);
    return status === 200 ? body : undefined;
  };
  const scheduledJobs = async (id: unknown): Promise<Array<{ created_at: string; creator: { type: string; id: number } }>> => {
    const { body } = await service.api("GET", "/jobs?limit=100");
    return body.filter((job: any) => job.creator?.type === "Schedule" && job.creator.id === Number(id));
  };
  const up = async () => (outputs = (await test.stack.up({ onOutput })).outputs);

  beforeAll(async () => {
    service = await startTestEmulator({ speed: SPEED, account: { packages: [PACKAGE], clusters: [CLUSTER] } });
    test = await createTestStack(
      "schedule",
      async () => {
        const nightly = new Schedule("nightly", args);
        const adopted = adoptedArgs === undefined ? undefined : new Schedule("adopted", adoptedArgs);
        return { id: nightly.id, enabled: nightly.enabled, status: nightly.status, nextRunAt: nightly.nextRunAt, adoptedId: adopted?.id };
      },
      service,
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("up creates the schedule, enabled, in one call", async () => {
    await service.resetRequests();
    await up();
    expect(await service.writeRequests()).toEqual([expect.objectContaining({ method: "POST", path: expect.stringMatching(/\/schedules$/) })]);
    expect(outputs.enabled!.value).toBe(true);
    expect(await schedule(outputs.id!.value)).toMatchObject({ name: "nightly", status: "enabled", interval_amount: 1, interval_unit: "minutes" });
  });

  it("an unchanged preview proposes nothing and makes no API call at all", async () => {
    await service.resetRequests();
    const preview = await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(await service.calls()).toEqual([]);
  });

  it("fires jobs of its package a minute of service time apart, and refresh finds no change", async () => {
    const id = outputs.id!.value;
    await expect.poll(async () => (await scheduledJobs(id)).length, { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(2);
    // The service's timestamps are real time; its schedule runs on its clock, 60 times faster.
    const [newer, older] = await scheduledJobs(id);
    const apartMs = Date.parse(newer!.created_at) - Date.parse(older!.created_at);
    expect(apartMs).toBeGreaterThanOrEqual(60_000 / SPEED - 50);
    expect(apartMs).toBeLessThan((2 * 60_000) / SPEED);
    const next = Date.parse((await schedule(id))!.next_run_at!);
    expect(next - Date.parse(newer!.created_at)).toBeGreaterThan(0);
    expect(next - Date.parse(newer!.created_at)).toBeLessThanOrEqual((2 * 60_000) / SPEED);
    await service.resetRequests();
    const refresh = await test.stack.refresh({ expectNoChanges: true, onOutput });
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
    expect(await service.calls()).toEqual([`GET /schedules/${id}`]);
    const state = (await test.stack.exportStack()).deployment.resources!.find((r: any) => r.type.endsWith("etl:Schedule"));
    expect(state.outputs.executionCount).toBeGreaterThanOrEqual(2);
  });

  it("a description and disabling update the same schedule in place", async () => {
    args = { ...args, description: "orders every minute", enabled: false };
    await service.resetRequests();
    await up();
    const writes = await service.writeRequests();
    expect(writes.map((r) => r.method)).toEqual(["PUT"]);
    expect(await schedule(outputs.id!.value)).toMatchObject({ status: "disabled", description: "orders every minute", next_run_at: null });
  });

  it("a new start once it has run replaces the schedule", async () => {
    const before = outputs.id!.value;
    args = { ...args, startAt: new Date(Date.now() + 86_400_000).toISOString() };
    const result = await test.stack.up({ onOutput });
    outputs = result.outputs;
    expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(outputs.id!.value).not.toBe(before);
    expect(await schedule(before)).toBeUndefined();
  });

  it("a new start for a schedule that ran since the stack read it fails up naming startAt, changes nothing, and up --refresh replaces it", async () => {
    const before = outputs.id!.value;
    // Out of band, the schedule starts now and runs; the stack still records it as never run.
    await service.api("PUT", `/schedules/${before}`, { status: "enabled", start_at: new Date().toISOString() });
    await expect.poll(async () => (await schedule(before))!.execution_count, { timeout: 20_000, interval: 200 }).toBeGreaterThan(0);
    args = { ...args, startAt: new Date(Date.now() + 2 * 86_400_000).toISOString() };
    await service.resetRequests();
    const failure = await failureOf(up());
    expect(failure).toMatch(new RegExp(`startAt: schedule ${before} has run \\d+ times? since the stack last read it`));
    expect(failure).toContain("run `pulumi up --refresh` to replace it");
    expect(await service.writeRequests()).toEqual([]);

    outputs = (await test.stack.up({ onOutput, refresh: true })).outputs;
    expect(outputs.id!.value).not.toBe(before);
    expect(await schedule(before)).toBeUndefined();
    expect(Date.parse((await schedule(outputs.id!.value))!.start_at)).toBe(Date.parse(args.startAt as string));
  });

  it("a rename made out of band is found by refresh and undone by up, in one `up --refresh`", async () => {
    const id = outputs.id!.value;
    await service.api("PUT", `/schedules/${id}`, { name: "renamed elsewhere" });
    // Had the refresh not read the new name, the update would have found nothing to change.
    const result = await test.stack.up({ onOutput, refresh: true });
    outputs = result.outputs;
    expect(result.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await schedule(id))!.name).toBe("nightly");
  });

  it("a schedule deleted out of band is dropped by refresh and created again by up, in one `up --refresh`", async () => {
    const id = outputs.id!.value;
    await service.api("DELETE", `/schedules/${id}`);
    // Had the refresh kept the schedule, the update would have found nothing to make.
    const result = await test.stack.up({ onOutput, refresh: true });
    outputs = result.outputs;
    expect(result.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(outputs.id!.value).not.toBe(id);
    expect(await schedule(outputs.id!.value)).toMatchObject({ name: "nightly", status: "disabled" });
  });

  it("importId adopts an existing schedule, updates what differs, and the next preview is empty", async () => {
    const { body: made } = await service.api("POST", "/schedules", {
      name: "legacy",
      status: "enabled",
      interval_amount: 2,
      interval_unit: "hours",
      task: { packages: [{ package_id: 101 }] },
    });
    adoptedArgs = { name: "legacy", enabled: false, interval: { amount: 2, unit: "hours" }, task: { packages: [{ packageId: 101 }] }, importId: made.id };
    await up();
    expect(outputs.adoptedId!.value).toBe(String(made.id));
    expect(await schedule(made.id)).toMatchObject({ status: "disabled" });
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.calls()).toEqual([]);
  });

  it("destroy deletes every schedule of the stack", async () => {
    const ids = [outputs.id!.value, outputs.adoptedId!.value];
    await service.resetRequests();
    await test.stack.destroy({ onOutput });
    expect((await service.calls()).sort()).toEqual(ids.map((id) => `DELETE /schedules/${id}`).sort());
    for (const id of ids) expect(await schedule(id)).toBeUndefined();
  });
});
