import { describe, expect, it, vi } from "vitest";
import { startEmulator, type Fixtures } from "../../emulator";
import { call, closedAfterEach, control, readJson, testFixtures } from "./helpers";

/** `/_emulator/clock`: the lifecycles' speed, changed while the service runs. */

const closeLater = closedAfterEach();

function fixtures(): Fixtures {
  const [acme, ...others] = testFixtures().accounts;
  return {
    accounts: [
      {
        ...acme!,
        clusters: [{ id: 11, name: "main", nodes: 2 }],
        packages: [{ id: 104, name: "hour", run: { seconds: 3600, outputs: [{ name: "out", records: 5 }] } }],
      },
      ...others,
    ],
  };
}

async function startAtRealTime() {
  return closeLater(await startEmulator({ fixtures: fixtures(), speed: 1 }));
}

describe("PUT /_emulator/clock", () => {
  it("runs a step under way at the new speed from when it began, ending at the change what has already had its time", async () => {
    const emulator = await startAtRealTime();
    expect(await readJson(await control(emulator, "/clock"))).toEqual({ speed: 1 });
    const job = await readJson(await call(emulator, "/jobs", { method: "POST", body: { cluster_id: 11, package_id: 104 } }));
    expect((await readJson(await call(emulator, `/jobs/${job.id}`))).status).not.toBe("completed");

    // An hour's job at speed 1,000,000 takes 3.6 ms, which it has had since it was made.
    const changedAt = Date.now();
    const response = await control(emulator, "/clock", "PUT", { speed: 1_000_000 });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ speed: 1_000_000 });
    // The steps brought forward happen at the change; each after them takes its own few milliseconds.
    const done = await vi.waitFor(async () => {
      const read = await readJson(await call(emulator, `/jobs/${job.id}`));
      expect(read.status).toBe("completed");
      return read;
    });
    expect(Date.parse(done.completed_at)).toBeGreaterThanOrEqual(changedAt - 1000);
    expect(Date.parse(done.completed_at)).toBeGreaterThanOrEqual(Date.parse(done.started_at));

    // Back to real time: a new job runs its hour again.
    await control(emulator, "/clock", "PUT", { speed: 1 });
    const next = await readJson(await call(emulator, "/jobs", { method: "POST", body: { cluster_id: 11, package_id: 104 } }));
    expect((await readJson(await call(emulator, `/jobs/${next.id}`))).status).not.toBe("completed");
  });

  it.each([
    [{}, "speed is required"],
    [{ speed: 0 }, "speed must be a number greater than 0"],
    [{ speed: "10" }, "speed must be a number greater than 0"],
    [{ speed: 10, at: 1 }, "at is not a clock setting; expected speed"],
    [[10], "the body must be a JSON object"],
  ])("refuses %j with 400: %s", async (body, message) => {
    const emulator = await startAtRealTime();
    const response = await control(emulator, "/clock", "PUT", body);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await readJson(response))).toContain(message);
    expect(await readJson(await control(emulator, "/clock"))).toEqual({ speed: 1 });
  });
});
