/**
 * Hook through the real engine against the emulator: up, an unchanged preview and refresh,
 * a signed delivery to a receiver when a job fails (checked with the stack's salt), in-place
 * updates, a salt rotation, a replacement for a new type, drift, a hook deleted out of band,
 * adoption by importId, destroy; and the basic-auth password never in the state or the CLI output.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { Hook, type HookArgs } from "pulumi-etl";
import { isValidHookSignature } from "../../../contract/hook-signature";
import { createTestStack, type TestStack } from "../../support/engine";
import { startTestEmulator, type Emulator } from "../../support/service";
import { filesUnder } from "../../support/soak";

const PASSWORD = "hook-SECRET-pw-2718";
const FAILING = { id: 102, name: "crm-sync", run: { seconds: 5, outcome: "failed" as const, error: "token expired" } };
const CLUSTER = { id: 201, name: "ready", nodes: 4 };

interface Delivery {
  headers: IncomingHttpHeaders;
  body: { hook_id: number; event: string; url: string };
}

function startReceiver(deliveries: Delivery[]): Promise<Server> {
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      deliveries.push({ headers: req.headers, body: JSON.parse(text) });
      res.end("ok");
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("Hook on the real engine", { timeout: 240_000 }, () => {
  let service: Emulator;
  let receiver: Server;
  let test: TestStack;
  let outputs: OutputMap;
  const deliveries: Delivery[] = [];
  const cliOutput: string[] = [];
  const onOutput = (text: string) => cliOutput.push(text);
  let receiverUrl = "";
  let args: HookArgs;
  let adoptedArgs: HookArgs | undefined;

  const hook = async (id: unknown) => {
    const { status, body } = await service.api("GET", `/hooks/${String(id)}`);
    return status === 200 ? body : undefined;
  };
  const up = async () => (outputs = (await test.stack.up({ onOutput })).outputs);

  beforeAll(async () => {
    receiver = await startReceiver(deliveries);
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/etl`;
    args = {
      type: "web",
      name: "failures",
      events: ["job.failed", "job.failed"],
      settings: { url: receiverUrl, basicAuth: { username: "etl", password: PASSWORD } },
    };
    service = await startTestEmulator({ speed: 60, account: { packages: [FAILING], clusters: [CLUSTER] } });
    test = await createTestStack(
      "hook",
      async () => {
        const failures = new Hook("failures", args);
        const adopted = adoptedArgs === undefined ? undefined : new Hook("adopted", adoptedArgs);
        return { id: failures.id, salt: failures.salt, events: failures.events, adoptedId: adopted?.id };
      },
      service,
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
    receiver?.close();
  });

  it("up creates the hook in one call, its settings and salt stored only encrypted", async () => {
    await service.resetRequests();
    await up();
    expect((await service.writeRequests()).map((r) => r.method)).toEqual(["POST"]);
    expect(outputs.events!.value).toEqual(["job.failed"]);
    expect(await hook(outputs.id!.value)).toMatchObject({ name: "failures", type: "web", active: true, events: ["job.failed"] });
    const salt = outputs.salt!.value as string;
    expect(outputs.salt!.secret).toBe(true);
    // Every file of the stack (the state in its backend included) and everything the CLI printed.
    const written = filesUnder(test.workDir).map((file) => readFileSync(file, "latin1"));
    for (const secret of [PASSWORD, Buffer.from(`etl:${PASSWORD}`).toString("base64"), salt]) {
      for (const text of [...written, cliOutput.join("")]) expect(text).not.toContain(secret);
    }
  });

  it("an unchanged preview proposes nothing and writes nothing, and refresh finds no change", async () => {
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.calls()).toEqual([]);
    const refresh = await test.stack.refresh({ expectNoChanges: true, onOutput });
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
    expect(await service.calls()).toEqual([`GET /hooks/${outputs.id!.value}`]);
  });

  it("a failed job reaches the receiver signed with the stack's salt, with basic authentication", async () => {
    const { status, body } = await service.api("POST", "/jobs", { cluster_id: CLUSTER.id, package_id: FAILING.id });
    expect(status, JSON.stringify(body)).toBe(201);
    // The emulator moves its records when it is asked about them: watch the job.
    const failed = async () => (await service.api("GET", `/jobs/${body.id}`)).body.status === "failed" && deliveries.length > 0;
    await expect.poll(failed, { timeout: 20_000, interval: 100 }).toBe(true);
    const [delivery] = deliveries;
    expect(delivery!.body).toMatchObject({ hook_id: Number(outputs.id!.value), event: "job.failed", url: receiverUrl });
    expect(isValidHookSignature(String(delivery!.headers["x-hook-signature"]), outputs.salt!.value, delivery!.body)).toBe(true);
    expect(delivery!.headers.authorization).toBe(`Basic ${Buffer.from(`etl:${PASSWORD}`).toString("base64")}`);
  });

  it("new events and a pause update the same hook in place; a new saltRotation makes a new salt", async () => {
    const before = { id: outputs.id!.value, salt: outputs.salt!.value };
    args = { ...args, events: ["cluster", "job.failed"], active: false };
    await service.resetRequests();
    await up();
    expect((await service.writeRequests()).map((r) => r.method)).toEqual(["PUT"]);
    expect(await hook(before.id)).toMatchObject({ active: false, events: ["cluster", "job.failed"] });
    args = { ...args, saltRotation: 1 };
    await service.resetRequests();
    await up();
    expect(await service.calls()).toEqual([`PUT /hooks/${before.id}/reset_salt`]);
    expect(outputs.id!.value).toBe(before.id);
    expect(outputs.salt!.value).not.toBe(before.salt);
    expect(outputs.salt!.value).toBe((await hook(before.id)).salt);
  });

  it("a new type replaces the hook", async () => {
    const before = outputs.id!.value;
    args = { type: "email", name: "failures", events: ["job.failed"], settings: { emails: ["ops@example.com", "data@example.com"] } };
    await up();
    expect(outputs.id!.value).not.toBe(before);
    expect(await hook(before)).toBeUndefined();
    expect((await hook(outputs.id!.value)).settings).toMatchObject({ emails: "ops@example.com,data@example.com" });
  });

  it("a rename made out of band is found by refresh and undone by up; a deleted hook comes back", async () => {
    const id = outputs.id!.value;
    await service.api("PUT", `/hooks/${id}`, { name: "renamed elsewhere" });
    const refresh = await test.stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    await up();
    expect((await hook(id)).name).toBe("failures");
    await service.api("DELETE", `/hooks/${id}`);
    await test.stack.refresh({ onOutput });
    await up();
    expect(outputs.id!.value).not.toBe(id);
  });

  it("importId adopts an existing hook, updates what differs, and the next preview is empty", async () => {
    const { body: made } = await service.api("POST", "/hooks", {
      type: "pagerduty",
      events: ["cluster.error"],
      settings: { pd_account: "acme", service_name: "etl", service_key: "pd-key" },
    });
    adoptedArgs = { type: "pagerduty", events: ["cluster"], settings: { pdAccount: "acme", serviceName: "etl", serviceKey: "pd-key-2" }, importId: made.id };
    await up();
    expect(outputs.adoptedId!.value).toBe(String(made.id));
    expect(await hook(made.id)).toMatchObject({ events: ["cluster"] });
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.calls()).toEqual([]);
  });

  it("destroy deletes every hook of the stack", async () => {
    const ids = [outputs.id!.value, outputs.adoptedId!.value];
    await service.resetRequests();
    await test.stack.destroy({ onOutput });
    expect((await service.calls()).sort()).toEqual(ids.map((id) => `DELETE /hooks/${id}`).sort());
    for (const id of ids) expect(await hook(id)).toBeUndefined();
  });
});
