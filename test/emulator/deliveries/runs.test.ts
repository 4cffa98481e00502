import { describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator";
import { ACCOUNT, call, fetchAsIs, until, type ApiRecord } from "../helpers";
import { after, create, deliveryFixtures, deliveryServices, jobsOf, MINUTE_MS, read, SETUP_MS } from "./helpers";

/** Deliveries running on the service's clock: set-up, runs every interval, disabling, fixtures and counters. */

const start = deliveryServices();

describe("a delivery's lifecycle", () => {
  it("is enabled after its set-up, makes its pipeline and runs a job of it every interval, started by the delivery", async () => {
    const emulator = await start();
    const created = await create(emulator, { name: "crm every minute", interval_unit: "minutes" });
    const enabledAt = after(created.created_at, SETUP_MS);
    const running = await until(
      () => read(emulator, `/deliveries/${created.id}`),
      (d) => d.last_run_at !== null && d.next_run_at > after(enabledAt, 2 * MINUTE_MS),
    );
    expect(running).toMatchObject({ status: "enabled", status_message: null, updated_at: enabledAt });
    expect(running.next_run_at).toBe(after(running.last_run_at, MINUTE_MS));

    const pipeline = await read(emulator, `/packages/${running.package_id}`);
    expect(pipeline).toMatchObject({ status: "active", flow_type: "dataflow" });

    const jobs = await jobsOf(emulator, created.id);
    expect(jobs.length).toBeGreaterThanOrEqual(3);
    expect(jobs.slice(0, 3).map((job) => job.created_at)).toEqual([0, 1, 2].map((k) => after(enabledAt, k * MINUTE_MS)));
    for (const job of jobs) {
      expect(job.package_id).toBe(running.package_id);
      expect(job.creator).toEqual({
        type: "Delivery",
        id: created.id,
        display_name: "crm every minute",
        url: `${emulator.url}/${ACCOUNT}/api/deliveries/${created.id}`,
        html_url: `${emulator.url}/${ACCOUNT}/deliveries/${created.id}`,
      });
    }
    // Every run goes to the cluster the delivery made for itself while it lives.
    expect(new Set(jobs.map((job) => job.cluster_id)).size).toBe(1);
    const done = await until(
      () => read(emulator, `/jobs/${jobs[0]!.id}`),
      (job) => job.status === "completed" || job.status === "failed",
    );
    expect(done.status).toBe("completed");
  });

  it("is disabled, naming the connection, when a connection it uses is deleted, and runs nothing more", async () => {
    const emulator = await start();
    const created = await create(emulator, { interval_unit: "minutes" });
    // A witness on the same clock, reading another connection: the minutes it runs in are minutes the disabled one had to run in.
    const witness = await create(emulator, { name: "witness", interval_unit: "minutes", source: { connection: { id: 302, type: "s3" }, properties: {} } });
    await until(
      () => read(emulator, `/deliveries/${created.id}`),
      (d) => d.last_run_at !== null,
    );
    const deleted = await call(emulator, "/connections/crm_platform/306", { method: "DELETE" });
    expect(deleted.status).toBe(200);
    const disabled = await read(emulator, `/deliveries/${created.id}`);
    expect(disabled).toMatchObject({ status: "disabled", status_message: 'its source connection 306 ("crm") was deleted', next_run_at: null });
    const jobs = (await jobsOf(emulator, created.id)).length;
    const witnessRuns = (await jobsOf(emulator, witness.id)).length;
    await until(
      () => jobsOf(emulator, witness.id),
      (runs) => runs.length >= witnessRuns + 3,
    );
    expect(await jobsOf(emulator, created.id)).toHaveLength(jobs);
    expect((await read(emulator, `/deliveries/${created.id}`)).status).toBe("disabled");
  });

  it("stays idle, and runs nothing, until its set-up is done", async () => {
    const emulator = await start({}, 1);
    const created = await create(emulator, { interval_unit: "minutes" });
    expect((await read(emulator, `/deliveries/${created.id}`)).status).toBe("idle");
    expect(await jobsOf(emulator, created.id)).toEqual([]);
  });
});

describe("fixtures", () => {
  it("refuse a delivery whose destination cannot be written", async () => {
    const bad = { source: { connectionId: 301 }, destination: { connectionId: 306 } };
    await expect(startEmulator({ port: 0, fixtures: deliveryFixtures({ deliveries: [bad] }) })).rejects.toThrow(
      /account acme-data: deliveries\[0\]\.destination\.connectionId: is a crm_platform connection, which cannot be written to/,
    );
  });

  it("start an enabled delivery with its pipeline, running from the start", async () => {
    const emulator = await start({
      deliveries: [
        {
          id: 41,
          status: "enabled",
          intervalUnit: "minutes",
          source: { connectionId: 306 },
          destination: { connectionId: 302, properties: { schema_name: "raw" } },
        },
      ],
    });
    const seen = await until(
      () => read(emulator, "/deliveries/41"),
      (d) => d.last_run_at !== null,
    );
    expect(seen).toMatchObject({ status: "enabled", destination: { properties: { schema: "raw" } } });
    expect(seen.package_id).not.toBeNull();
    expect((await jobsOf(emulator, 41)).length).toBeGreaterThanOrEqual(1);
  });
});

describe("the account's counters", () => {
  it("count the deliveries, and the pipeline among the active packages once it is made", async () => {
    const emulator = await start();
    const account = async () => (await fetchAsIs(`${emulator.url}/accounts/${ACCOUNT}`)).json() as Promise<ApiRecord>;
    expect(await account()).toMatchObject({ deliveries_count: 0, packages_count: 0 });
    const created = await create(emulator);
    expect(await account()).toMatchObject({ deliveries_count: 1, packages_count: 0 });
    await until(
      () => read(emulator, `/deliveries/${created.id}`),
      (delivery) => delivery.status === "enabled",
    );
    expect(await account()).toMatchObject({ deliveries_count: 1, packages_count: 1 });
  });
});
