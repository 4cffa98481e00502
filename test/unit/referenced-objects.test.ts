/**
 * Ids that name other objects of the service, against the emulator: for every kind whose
 * inputs take one, an id that names nothing fails the create naming the input, and nothing is
 * made; an id the service checks itself costs no read unless it refuses, one it does not is read
 * first; an update reads only ids it names anew, and a refresh reads none.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import type { OperationContext } from "../../provider/context";
import { IMPLEMENTATIONS, RESOURCES, type ResourceDeclaration, type ResourceKind } from "../../provider/resources/registry";
import { idsAt } from "../../provider/resources/shared/referenced-objects";
import { contextWith } from "../support/context";

const API_KEY = "references-unit-key-0123456789";
const ACCOUNT = "acme";
const MISSING = 999_999;

const CONNECTIONS = [
  { id: 301, name: "warehouse", type: "postgres", attributes: { username: "etl", password: "pw", host: "db.example.com", database: "analytics" } },
  { id: 302, name: "lake", type: "s3", attributes: { username: "AKIAEXAMPLE", password: "secret", region: "eu-west-1" } },
  { id: 306, name: "crm", type: "crm_platform", crmObjects: [{ name: "Contact" }] },
];

/** Inputs that name nothing at one input, by kind: the input's path in the message, and the program's inputs. */
const WRONG_IDS: Array<{ kind: ResourceKind; input: string; args: Record<string, unknown>; noun: string; refused?: string }> = [
  { kind: "Package", input: "alertHookId", noun: "hook", args: { name: "alerted", validate: false, alertHookId: MISSING } },
  {
    kind: "Package",
    input: "dataFlow.components.1.connection.id",
    noun: "connection",
    args: {
      name: "flowed",
      dataFlow: {
        components: [
          { name: "rows", type: "source", connection: { id: 301 }, table: "orders" },
          { name: "lake", type: "destination", connection: { id: String(MISSING) }, path: "orders/" },
        ],
        edges: [{ from: "rows", to: "lake" }],
      },
    },
  },
  {
    kind: "Package",
    input: "sourceConnectionId",
    noun: "connection",
    args: { name: "from template", templateId: 1, sourceConnectionId: MISSING, destinationConnectionId: 302 },
  },
  {
    kind: "Package",
    input: "destinationConnectionId",
    noun: "connection",
    args: { name: "from template", templateId: 1, sourceConnectionId: 301, destinationConnectionId: String(MISSING) },
  },
  {
    kind: "Package",
    input: "templateId",
    noun: "package template",
    refused: "POST /packages 422",
    args: { name: "from template", templateId: MISSING, validate: false },
  },
  {
    kind: "Schedule",
    input: "task.packages.1.packageId",
    noun: "package",
    refused: "POST /schedules 422",
    args: { name: "nightly", interval: { amount: 1, unit: "days" }, task: { packages: [{ packageId: 101 }, { packageId: MISSING }] } },
  },
  { kind: "JobRun", input: "clusterId", noun: "cluster", refused: "POST /jobs 422", args: { clusterId: MISSING, packageId: 101 } },
  { kind: "JobRun", input: "packageId", noun: "package", refused: "POST /jobs 422", args: { clusterId: 201, packageId: MISSING } },
  {
    kind: "Delivery",
    input: "destination.connection.id",
    noun: "connection",
    refused: "POST /deliveries 422",
    args: {
      source: { connection: { id: 306, type: "crm_platform" }, properties: { object: "Contact" } },
      destination: { connection: { id: MISSING, type: "postgres" }, properties: { schema: "crm" } },
    },
  },
  {
    kind: "ConnectionGroup",
    input: "connections",
    noun: "connection",
    refused: "POST /connection_groups 422",
    args: {
      name: "analytics",
      connections: [
        { id: 301, type: "postgres" },
        { id: MISSING, type: "postgres" },
      ],
    },
  },
];

describe("ids of other objects", () => {
  let emulator: RunningEmulator;
  let ctx: OperationContext;
  let hookId: number;

  const control = async (what: string, method = "GET"): Promise<any> =>
    (await fetch(`${emulator.url}/_emulator/${what}`, { method })).json().catch(() => undefined);
  const calls = async (): Promise<string[]> =>
    ((await control("requests")) as Array<{ method: string; path: string; status: number }>).map(
      (r) => `${r.method} ${r.path.replace(`/${ACCOUNT}/api`, "")} ${r.status}`,
    );
  const resetCalls = () => control("requests", "DELETE");
  const account = async () => (await control("state")).accounts[0];

  /** The inputs as `check` makes them, then the create. */
  async function create(kind: ResourceKind, args: Record<string, unknown>) {
    const implementation = IMPLEMENTATIONS[kind];
    const checked = await implementation.check({}, args, { note: () => {} } as never);
    expect("failures" in checked ? checked.failures : []).toEqual([]);
    return implementation.create(ctx, checked.inputs as never);
  }

  beforeAll(async () => {
    emulator = await startEmulator({
      fixtures: {
        accounts: [
          {
            id: 1,
            uid: ACCOUNT,
            users: [{ id: 1, name: "A", email: "a@example.com", apiKey: API_KEY }],
            packages: [{ id: 101, name: "orders", run: { seconds: 5 } }],
            clusters: [{ id: 201, name: "ready", nodes: 2 }],
            connections: CONNECTIONS,
          },
        ],
      },
    });
    ctx = contextWith({ "etl:apiUrl": emulator.url, "etl:accountId": ACCOUNT, "etl:apiKey": API_KEY, "etl:maxRetries": "0" });
    const made = await fetch(`${emulator.url}/${ACCOUNT}/api/hooks`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}`,
        accept: "application/vnd.service+json; version=2",
        "content-type": "application/json",
      },
      body: JSON.stringify({ type: "web", events: ["job.failed"], settings: { url: "https://alerts.example.com" } }),
    });
    hookId = ((await made.json()) as { id: number }).id;
  });
  afterAll(() => emulator.close());

  it("finds each id at its path, items by index, and leaves out values not known yet", () => {
    const task = { packages: [{ packageId: 101 }, { packageId: "102" }, { packageId: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" }] };
    expect(idsAt({ task }, "task.packages.*.packageId")).toEqual([
      { at: "task.packages.0.packageId", id: 101 },
      { at: "task.packages.1.packageId", id: 102 },
    ]);
    expect(idsAt({ connections: [{ id: 301 }] }, "connections.*.id")).toEqual([{ at: "connections.0.id", id: 301 }]);
    // A list kept in id order names its item by the list: the index would not be the program's.
    expect(idsAt({ connections: [{ id: 301 }, { id: 302 }] }, "connections.*.id", true)).toEqual([
      { at: "connections", id: 301 },
      { at: "connections", id: 302 },
    ]);
    expect(idsAt({}, "alertHookId")).toEqual([]);
  });

  it("every input that takes another resource says in its field table which object its ids name", () => {
    const undeclared = Object.values(RESOURCES).flatMap((declaration: ResourceDeclaration) => {
      const table = declaration.tableOperations.table as Record<string, { refersTo?: object }>;
      return (declaration.resourceInputs ?? [])
        .map((input) => input.path.split(".")[0]!)
        .filter((name) => table[name]?.refersTo === undefined)
        .map((name) => `${declaration.kind}.${name}`);
    });
    expect(undeclared).toEqual([]);
    // The rule is not empty: the kinds that take resources are the ones whose ids are read.
    expect(Object.values(RESOURCES).filter((declaration: ResourceDeclaration) => (declaration.resourceInputs ?? []).length > 0).length).toBeGreaterThan(3);
  });

  for (const { kind, input, args, noun, refused } of WRONG_IDS) {
    it(`${kind}: ${input} naming nothing fails the create naming the input, and nothing is made`, async () => {
      const before = await account();
      await resetCalls();
      await expect(create(kind, args)).rejects.toThrow(`${input} ${MISSING}: no ${noun} with this id in account ${ACCOUNT}`);
      // A create the service checks itself is sent, and refused; one it would take is never sent.
      expect((await calls()).filter((call) => !call.startsWith("GET"))).toEqual(refused === undefined ? [] : [refused]);
      const after = await account();
      for (const rows of ["packages", "schedules", "jobs", "deliveries", "connectionGroups", "hooks"]) expect(after[rows], rows).toEqual(before[rows]);
    });
  }

  it("a create whose ids the service checks reads none of them; one naming a hook reads the hook once", async () => {
    await resetCalls();
    await create("Schedule", { name: "fine", interval: { amount: 1, unit: "days" }, task: { packages: [{ packageId: 101 }] } });
    expect((await calls()).map((call) => call.split(" ").slice(0, 2).join(" "))).toEqual(["POST /schedules"]);
    await resetCalls();
    const made = await create("Package", { name: "alerted", validate: false, alertHookId: String(hookId) });
    expect(made.outs).toMatchObject({ alertHookId: hookId });
    expect((await calls())[0]).toBe(`GET /hooks/${hookId} 200`);
    expect((await calls()).filter((call) => call.startsWith("GET /hooks"))).toHaveLength(1);
  });

  it("an update reads only the ids it names anew, and refuses one that names nothing before sending anything", async () => {
    const provider = IMPLEMENTATIONS.Package;
    const made = await create("Package", { name: "kept", validate: false, alertHookId: hookId });
    const olds = made.outs as Record<string, unknown>;
    await resetCalls();
    await provider.update!(ctx, made.id, olds as never, { ...olds, name: "kept", validate: false, alertHookId: hookId, description: "now" } as never);
    expect((await calls()).filter((call) => call.startsWith("GET /hooks"))).toEqual([]);
    await resetCalls();
    await expect(provider.update!(ctx, made.id, olds as never, { name: "kept", validate: false, alertHookId: MISSING } as never)).rejects.toThrow(
      `alertHookId ${MISSING}: no hook with this id in account ${ACCOUNT}`,
    );
    expect(await calls()).toEqual([`GET /hooks/${MISSING} 404`]);
    await resetCalls();
    await provider.read(ctx, made.id, olds as never);
    expect((await calls()).filter((call) => call.startsWith("GET /hooks"))).toEqual([]);
  });

  it("a package's flow: its create reads each connection once, its update only the connections new to the flow", async () => {
    const provider = IMPLEMENTATIONS.Package;
    const flowTo = (destination: Record<string, unknown>) => ({
      components: [
        { name: "rows", type: "source", connection: { id: 301, type: "postgres" }, table: "orders" },
        { name: "lake", type: "destination", connection: destination, path: "orders/" },
      ],
      edges: [{ from: "rows", to: "lake" }],
    });
    await resetCalls();
    // A connection that gives its type is read once, for both checks.
    const made = await create("Package", { name: "flowed", validate: false, dataFlow: flowTo({ id: 302, type: "s3" }) });
    expect((await calls()).sort()).toEqual(["GET /connections/301 200", "GET /connections/302 200", "POST /packages 201"]);
    const olds = made.outs as Record<string, unknown>;
    const news = async (destination: Record<string, unknown>) =>
      (await provider.check({}, { name: "flowed", validate: false, dataFlow: flowTo(destination) })).inputs;
    await resetCalls();
    await expect(provider.update!(ctx, made.id, olds as never, (await news({ id: MISSING })) as never)).rejects.toThrow(
      `dataFlow.components.1.connection.id ${MISSING}: no connection with this id in account ${ACCOUNT}`,
    );
    expect(await calls()).toEqual([`GET /connections/${MISSING} 404`]);
    await resetCalls();
    await provider.update!(ctx, made.id, olds as never, (await news({ id: 306 })) as never);
    // 301 is read for its type's sake only; 306 is new to the flow.
    expect((await calls()).sort()).toEqual(["GET /connections/301 200", "GET /connections/306 200", `PUT /packages/${made.id} 200`]);
  });

  it("a refusal whose ids all name usable objects is the service's own answer; one naming an ending cluster says so", async () => {
    const mistyped = create("ConnectionGroup", { name: "mistyped", connections: [{ id: 301, type: "s3" }] });
    await expect(mistyped).rejects.toThrow(/connection_groups failed with 422 .*connection 301 has type postgres, not s3/);
    await fetch(`${emulator.url}/${ACCOUNT}/api/clusters/201`, {
      method: "DELETE",
      headers: { authorization: `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}`, accept: "application/vnd.service+json; version=2" },
    });
    await expect(create("JobRun", { clusterId: 201, packageId: 101 })).rejects.toThrow(
      /^clusterId 201: cluster 201 is (pending_terminate|terminating|terminated)$/,
    );
  });
});
