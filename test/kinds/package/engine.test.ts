/**
 * Package through the real engine against the emulator: up with its validation, the
 * flow's connections read first; an unchanged preview (no call) and refresh; the same flow as
 * an export document's JSON text (another key order, other whitespace) proposing nothing;
 * in-place updates and a replacement;
 * drift; an archive out of band; an invalid flow failing `up` with its errors named and no second
 * package; adoption; a schedule and a job run of the declared package running its flow; destroy
 * archiving.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { JobRun, Package, Schedule, type PackageArgs } from "pulumi-etl";
import { createTestStack, type TestStack } from "../../support/engine";
import { startTestEmulator, type Emulator } from "../../support/service";

const WAREHOUSE = { id: 301, name: "warehouse", type: "postgres" };
const LAKE = { id: 302, name: "lake", type: "s3" };
const CRM = { id: 303, name: "crm", type: "salesforce" };
const CLUSTER = { id: 201, name: "ready", nodes: 2 };

/** The source's connection id as a string, as a `Connection`'s `id` is; `sent` is the flow as the API takes it. */
function flow(destination = WAREHOUSE.id, sent = false) {
  return {
    components: [
      { name: "deals", type: "source", connection: { id: sent ? CRM.id : String(CRM.id) }, path: "Opportunity" },
      { name: "won", type: "filter", condition: "stage = '${stage}'" },
      { name: "warehouse", type: "destination", connection: { id: destination }, table: "won_deals" },
    ],
    edges: [
      { from: "deals", to: "won" },
      { from: "won", to: "warehouse" },
    ],
  };
}

describe("Package on the real engine", { timeout: 300_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let outputs: OutputMap;
  let args: PackageArgs;
  let adoptedArgs: PackageArgs | undefined;
  let runs = false;
  const cliOutput: string[] = [];
  const onOutput = (text: string) => cliOutput.push(text);

  const pkg = async (id: unknown) => (await service.api("GET", `/packages/${String(id)}`)).body;
  const up = async () => (outputs = (await test.stack.up({ onOutput })).outputs);
  const packagesNamed = async (name: string) =>
    ((await service.api("GET", "/packages?limit=100")).body as { id: number; name: string; status: string }[]).filter((p) => p.name === name);

  beforeAll(async () => {
    args = { name: "won deals", variables: { stage: "won" }, dataFlow: flow() };
    service = await startTestEmulator({ speed: 600, account: { clusters: [CLUSTER], connections: [WAREHOUSE, LAKE, CRM] } });
    test = await createTestStack(
      "package",
      async () => {
        const deals = new Package("deals", args);
        const adopted = adoptedArgs === undefined ? undefined : new Package("adopted", adoptedArgs);
        const nightly = runs
          ? new Schedule("nightly", { name: "nightly deals", interval: { amount: 1, unit: "minutes" }, task: { packages: [{ packageId: deals }] } })
          : undefined;
        const once = runs ? new JobRun("once", { clusterId: CLUSTER.id, packageId: deals }) : undefined;
        return {
          id: deals.id,
          version: deals.version,
          validationStatus: deals.validationStatus,
          dataFlow: deals.dataFlow,
          adoptedId: adopted?.id,
          scheduleId: nightly?.id,
          jobOutputs: once?.outputs,
        };
      },
      service,
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("up reads the flow's connections, creates the package and validates it: four calls", async () => {
    await service.resetRequests();
    await up();
    const id = outputs.id!.value;
    const calls = await service.calls();
    expect(calls.slice(0, 2).sort()).toEqual([`GET /connections/${WAREHOUSE.id}`, `GET /connections/${CRM.id}`]);
    expect(calls.slice(2)).toEqual(["POST /packages", `POST /packages/${id}/validate`]);
    expect(outputs.validationStatus!.value).toBe("completed");
    expect(outputs.version!.value).toBe(1);
    expect(await pkg(id)).toMatchObject({ name: "won deals", status: "active", flow_type: "dataflow", version: 1 });
    // The connection id given as a string is sent, and kept, as the service's number.
    expect((await service.api("GET", `/packages/${id}/export`)).body.data_flow_json.components[0].connection).toEqual({ id: CRM.id });
  });

  it("an unchanged preview makes no call; refresh reads the package alone, whose updated_at says its flow and validation are the state's", async () => {
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.calls()).toEqual([]);
    const refresh = await test.stack.refresh({ expectNoChanges: true, onOutput });
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
    const id = outputs.id!.value;
    expect(await service.calls()).toEqual([`GET /packages/${id}`]);
  });

  it("the same flow as an export document's JSON text, keys reordered and spaced out, proposes nothing", async () => {
    const id = outputs.id!.value;
    const document = (await service.api("GET", `/packages/${id}/export`)).body;
    const reordered = {
      data_flow_json: {
        edges: document.data_flow_json.edges,
        components: document.data_flow_json.components.map((c: object) => Object.fromEntries(Object.entries(c).reverse())),
      },
      name: "ignored",
    };
    args = { ...args, dataFlow: JSON.stringify(reordered, null, 4) };
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.calls()).toEqual([]);
  });

  it("a new description updates in place (edges in another order are the same flow); a new flow type replaces", async () => {
    const id = outputs.id!.value;
    args = { ...args, description: "won deals, daily", dataFlow: { ...flow(), edges: [...flow().edges].reverse() } };
    await service.resetRequests();
    await up();
    expect(await service.calls()).toEqual([`PUT /packages/${id}`, `POST /packages/${id}/validate`]);
    expect(await pkg(id)).toMatchObject({ description: "won deals, daily", version: 2 });
    args = { ...args, flowType: "workflow" };
    await up();
    expect(outputs.id!.value).not.toBe(id);
    expect(await pkg(id)).toMatchObject({ status: "archived" });
    expect(await pkg(outputs.id!.value)).toMatchObject({ flow_type: "workflow", status: "active" });
  });

  it("a flow changed out of band is found by refresh and put back by up; an archived package is made again", async () => {
    const id = outputs.id!.value;
    expect((await service.api("PUT", `/packages/${id}`, { data_flow_json: flow(LAKE.id, true) })).status).toBe(200);
    const refresh = await test.stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    await up();
    expect((await service.api("GET", `/packages/${id}/export`)).body.data_flow_json.components[2].connection).toEqual({ id: WAREHOUSE.id });
    await service.api("DELETE", `/packages/${id}`);
    await test.stack.refresh({ onOutput });
    await up();
    expect(outputs.id!.value).not.toBe(id);
  });

  it("a destination on a CRM connection fails up with the validation's errors named, and the fix updates the same package", async () => {
    const id = outputs.id!.value;
    args = { ...args, dataFlow: flow(CRM.id) };
    cliOutput.length = 0;
    await expect(up()).rejects.toThrow(/update failed|failed/);
    const printed = cliOutput.join("");
    expect(printed).toContain(
      `package ${id} is invalid: warehouse: destination "warehouse" writes to connection 303, a crm platform connection, which cannot be written to (rule connection-role)`,
    );
    const active = (await packagesNamed("won deals")).filter((p) => p.status === "active");
    expect(active.map((p) => String(p.id))).toEqual([id]);
    expect(await pkg(id)).toMatchObject({ version: 2 });
    args = { ...args, dataFlow: flow(WAREHOUSE.id) };
    await service.resetRequests();
    await up();
    expect(outputs.id!.value).toBe(id);
    expect(outputs.validationStatus!.value).toBe("completed");
    // The stack recorded the invalid flow, whose destination was the CRM: the warehouse is new to it again.
    expect(await service.calls()).toEqual([`GET /connections/${WAREHOUSE.id}`, `PUT /packages/${id}`, `POST /packages/${id}/validate`]);
  });

  it("importId adopts an existing package, updates what differs, and the next preview is empty", async () => {
    const { body: made } = await service.api("POST", "/packages", { name: "made by hand", data_flow_json: flow(LAKE.id, true), variables: { stage: "won" } });
    adoptedArgs = { name: "made by hand", variables: { stage: "won" }, dataFlow: flow(WAREHOUSE.id), importId: made.id };
    await up();
    expect(outputs.adoptedId!.value).toBe(String(made.id));
    expect((await service.api("GET", `/packages/${made.id}/export`)).body.data_flow_json.components[2].connection).toEqual({ id: WAREHOUSE.id });
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.calls()).toEqual([]);
  });

  it("a schedule and a job run take the Package resource itself, and its jobs write what the flow says", async () => {
    runs = true;
    await up();
    const outputsOfJob = outputs.jobOutputs!.value as { name: string; recordsCount: number }[];
    expect(outputsOfJob).toEqual([expect.objectContaining({ name: "won_deals", recordsCount: 500 })]);
    const scheduleId = outputs.scheduleId!.value;
    const scheduled = async () => {
      const jobs = (await service.api("GET", "/jobs?limit=100")).body as {
        status: string;
        creator?: { type: string; id: number };
        package_id: number;
        outputs: { name: string; records_count: number }[];
      }[];
      return jobs.filter((job) => job.creator?.type === "Schedule" && String(job.creator.id) === String(scheduleId) && job.status === "completed");
    };
    await expect.poll(async () => (await scheduled()).length, { timeout: 60_000, interval: 250 }).toBeGreaterThan(0);
    const [job] = await scheduled();
    expect(String(job!.package_id)).toBe(outputs.id!.value);
    expect(job!.outputs.map((o) => [o.name, o.records_count])).toEqual([["won_deals", 500]]);
  });

  it("destroy archives every package of the stack", async () => {
    const ids = [outputs.id!.value, outputs.adoptedId!.value];
    await test.stack.destroy({ onOutput });
    for (const id of ids) expect(await pkg(id)).toMatchObject({ status: "archived" });
  });
});
