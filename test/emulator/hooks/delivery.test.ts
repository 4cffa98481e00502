import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../../emulator";
import { isValidHookSignature } from "../../../contract/hook-signature";
import { downUrl, startReceiver, type Receiver } from "./helpers";
import { call, control, OTHER_ACCOUNT, OTHER_KEY, readJson, testFixtures } from "../helpers";

/**
 * Hooks delivering for real: a receiver started here gets signed notifications of job and
 * cluster events; a receiver that is down, failing or slow is recorded as a failed delivery and
 * never slows or stops the service. Time runs 200 times faster, so a job fails in 65 ms.
 */

const SPEED = 200;
const USER = "robot";
const PASSWORD = "s3cret";

function fixtures(): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [
      {
        ...acme!,
        clusters: [{ id: 11, name: "main", nodes: 4 }],
        packages: [
          { id: 101, name: "broken", run: { seconds: 10, outcome: "failed", error: "token expired" } },
          { id: 102, name: "fine", run: { seconds: 5 } },
        ],
      },
      { ...globex!, clusters: [{ id: 91, name: "globex" }], packages: [{ id: 901, name: "globex-broken", run: { seconds: 10, outcome: "failed" } }] },
    ],
  };
}

let emulator: RunningEmulator;
let receiver: Receiver;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, fixtures: fixtures(), speed: SPEED, creditsPerHour: 1_000_000 });
});

afterAll(() => emulator.close());

afterEach(async () => {
  await receiver?.close();
  await control(emulator, "/hook-deliveries", "PUT", { timeoutMs: 10_000 });
});

/** Polls (each poll also moves the service's lifecycles on) until `check` returns a value. */
async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("waited too long");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function createHook(body: Record<string, unknown>, options: { key?: string; account?: string } = {}): Promise<any> {
  const response = await call(emulator, "/hooks", { method: "POST", body, ...options });
  expect(response.status).toBe(201);
  return readJson(response);
}

function webHook(url: string, events: string[], extra: Record<string, unknown> = {}): Promise<any> {
  const basicAuth = { basic_auth: true, basic_auth_data: Buffer.from(`${USER}:${PASSWORD}`).toString("base64") };
  return createHook({ type: "web", events, settings: { url, ...basicAuth }, ...extra });
}

async function runJob(packageId: number, options: { key?: string; account?: string; clusterId?: number } = {}): Promise<number> {
  const body = { cluster_id: options.clusterId ?? 11, package_id: packageId };
  const response = await call(emulator, "/jobs", { method: "POST", body, ...options });
  expect(response.status).toBe(201);
  return (await readJson(response)).id;
}

async function jobEnds(id: number, status: string, options: { key?: string; account?: string } = {}): Promise<void> {
  await waitFor(async () => ((await readJson(await call(emulator, `/jobs/${id}`, options))).status === status ? true : undefined));
}

async function deliveries(hookId: number): Promise<any[]> {
  const all = (await readJson(await control(emulator, "/hook-deliveries"))).deliveries as any[];
  return all.filter((delivery) => delivery.hookId === hookId);
}

/** The hook's first delivery of `event` once it has ended. */
function settled(hookId: number, event: string): Promise<any> {
  return waitFor(async () => (await deliveries(hookId)).find((d) => d.event === event && d.status !== "pending"));
}

async function ping(hookId: number): Promise<any> {
  const response = await call(emulator, `/hooks/${hookId}/ping`);
  expect(response.status).toBe(200);
  return readJson(response);
}

const sha1 = (text: string): string => createHash("sha1").update(text).digest("hex");

describe("a web hook told of a failed job", () => {
  it("gets a signed JSON POST with basic authentication, and the outcome is recorded and shown by ping", async () => {
    receiver = await startReceiver();
    const hook = await webHook(receiver.url, ["job.failed"]);
    const jobId = await runJob(101);
    await jobEnds(jobId, "failed");
    const request = await receiver.nth(1);
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/hook");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`);
    expect(request.body).toMatchObject({ hook_id: hook.id, event: "job.failed", url: receiver.url, account_id: "acme-data", object_type: "job" });
    expect(request.body.object).toMatchObject({ id: jobId, status: "failed", package_id: 101, cluster_id: 11, errors: "token expired" });
    // The recipe computed here on its own, then with the contract's function a receiver would use.
    const signature = request.headers["x-hook-signature"];
    expect(signature).toBe(sha1(`${hook.id}job.failed${receiver.url}${hook.salt}`));
    expect(isValidHookSignature(String(signature), hook.salt, request.body)).toBe(true);
    expect(isValidHookSignature(String(signature), "0".repeat(64), request.body)).toBe(false);

    expect((await settled(hook.id, "job.failed")).status).toBe("success");
    const [event] = (await ping(hook.id)).events;
    expect(event).toMatchObject({ id: "job.failed", name: "Job failed", last_trigger_status: "success", last_response: { status: 200, body: "thanks" } });
    expect(Date.parse(event.last_trigger_time)).not.toBeNaN();
    expect(receiver.received.filter((r) => r.body.event === "job.failed")).toHaveLength(1);
  });

  it("gets every event of the group it subscribes to, in order, and nothing it does not", async () => {
    receiver = await startReceiver();
    const all = await webHook(receiver.url, ["job"]);
    const onlyCompleted = await webHook(receiver.url, ["job.completed"]);
    const jobId = await runJob(101);
    await jobEnds(jobId, "failed");
    await settled(all.id, "job.failed");
    const events = (await deliveries(all.id)).map((d) => d.event);
    expect(events).toEqual(["job.submitted", "job.started", "job.failed"]);
    expect(await deliveries(onlyCompleted.id)).toEqual([]);
  });

  it("is not told when inactive, nor of another account's jobs", async () => {
    receiver = await startReceiver();
    const inactive = await webHook(receiver.url, ["job"], { active: false });
    const active = await webHook(receiver.url, ["job.failed"]);
    const otherJob = await runJob(901, { key: OTHER_KEY, account: OTHER_ACCOUNT, clusterId: 91 });
    await jobEnds(otherJob, "failed", { key: OTHER_KEY, account: OTHER_ACCOUNT });
    const ownJob = await runJob(101);
    await jobEnds(ownJob, "failed");
    await settled(active.id, "job.failed");
    expect(receiver.received.map((r) => r.body.object.id)).toEqual([ownJob]);
    expect(await deliveries(inactive.id)).toEqual([]);
  });
});

describe("a receiver that does not take the notification", () => {
  it("when down: a failed delivery, shown by ping, and the service carries on", async () => {
    const hook = await webHook(await downUrl(), ["job.failed"]);
    const jobId = await runJob(101);
    await jobEnds(jobId, "failed");
    const delivery = await settled(hook.id, "job.failed");
    expect(delivery).toMatchObject({ status: "failure", response: null });
    expect(delivery.error).toMatch(/ECONNREFUSED/);
    const [event] = (await ping(hook.id)).events;
    expect(event.last_trigger_status).toBe("failure");
    expect(event.last_response.error).toMatch(/ECONNREFUSED/);
    expect((await control(emulator, "/health")).status).toBe(200);
  });

  it("when failing: the receiver's answer is recorded", async () => {
    receiver = await startReceiver();
    receiver.behave("error");
    const hook = await webHook(receiver.url, ["job.failed"]);
    await jobEnds(await runJob(101), "failed");
    expect(await settled(hook.id, "job.failed")).toMatchObject({ status: "failure", response: { status: 500, body: "receiver broke" } });
  });

  it("when slow: the API answers meanwhile, and the delivery fails at the timeout", async () => {
    receiver = await startReceiver();
    receiver.behave("hang");
    expect((await readJson(await control(emulator, "/hook-deliveries", "PUT", { timeoutMs: 300 }))).timeoutMs).toBe(300);
    const hook = await webHook(receiver.url, ["job.failed"]);
    await jobEnds(await runJob(101), "failed");
    await receiver.nth(1);
    expect((await deliveries(hook.id))[0].status).toBe("pending");
    expect((await call(emulator, `/hooks/${hook.id}`)).status).toBe(200);
    expect((await deliveries(hook.id))[0].status).toBe("pending");
    const delivery = await settled(hook.id, "job.failed");
    expect(delivery).toMatchObject({ status: "failure", error: "no answer within 300 ms" });
  });
});

describe("ping and reset_salt", () => {
  it("ping sends a signed test notification; after reset_salt the old salt no longer verifies", async () => {
    receiver = await startReceiver();
    const hook = await webHook(receiver.url, ["cluster.error"], { active: false });
    const answer = await ping(hook.id);
    expect(answer.events).toEqual([{ id: "cluster.error", name: "Cluster error", last_response: {}, last_trigger_status: "none", last_trigger_time: null }]);
    expect(answer.salt).toBe(hook.salt);
    const first = await receiver.nth(1);
    expect(first.body).toMatchObject({ event: "ping", hook_id: hook.id, object_type: "hook", object: { id: hook.id } });
    expect(isValidHookSignature(String(first.headers["x-hook-signature"]), hook.salt, first.body)).toBe(true);

    const { salt } = await readJson(await call(emulator, `/hooks/${hook.id}/reset_salt`, { method: "PUT" }));
    await ping(hook.id);
    const second = await receiver.nth(2);
    const signature = String(second.headers["x-hook-signature"]);
    expect(signature).not.toBe(first.headers["x-hook-signature"]);
    expect(isValidHookSignature(signature, salt, second.body)).toBe(true);
    expect(isValidHookSignature(signature, hook.salt, second.body)).toBe(false);
  });
});

describe("cluster events", () => {
  it("a cluster asked for, ready, then terminated is told in that order", async () => {
    receiver = await startReceiver();
    const hook = await webHook(receiver.url, ["cluster.requested", "cluster.available", "cluster.terminated"]);
    const cluster = await readJson(await call(emulator, "/clusters", { method: "POST", body: { nodes: 1 } }));
    await waitFor(async () => ((await readJson(await call(emulator, `/clusters/${cluster.id}`))).status === "available" ? true : undefined));
    await call(emulator, `/clusters/${cluster.id}`, { method: "DELETE" });
    await waitFor(async () => ((await readJson(await call(emulator, `/clusters/${cluster.id}`))).status === "terminated" ? true : undefined));
    await receiver.nth(3);
    expect(receiver.received.map((r) => [r.body.event, r.body.object.id])).toEqual([
      ["cluster.requested", cluster.id],
      ["cluster.available", cluster.id],
      ["cluster.terminated", cluster.id],
    ]);
    await settled(hook.id, "cluster.terminated");
  });
});
