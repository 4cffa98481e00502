/**
 * Packages without a flow, as the web application makes them first: created with no
 * `data_flow_json`, with an empty flow, or from the export of such a package, and what a
 * validation of one answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { call, readJson, startTestEmulator, testFixtures } from "../helpers";

const EMPTY = { components: [], edges: [] };
const FLOW = {
  components: [
    { name: "rows", type: "source", connection: { id: 7301 }, table: "orders" },
    { name: "out", type: "destination", connection: { id: 7301 }, table: "copy" },
  ],
  edges: [{ from: "rows", to: "out" }],
};

describe("packages without a flow", () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    const fixtures = testFixtures();
    fixtures.accounts![0]!.packages = [{ id: 7101, name: "made in the web application" }];
    emulator = await startTestEmulator(fixtures);
  });

  afterAll(async () => {
    await emulator?.close();
  });

  async function created(body: Record<string, unknown>): Promise<{ id: number; name: string }> {
    const response = await call(emulator, "/packages", { method: "POST", body });
    const record = await readJson(response);
    expect(response.status, JSON.stringify(record)).toBe(201);
    return record;
  }

  const exportOf = async (id: number) => readJson(await call(emulator, `/packages/${id}/export`));
  const validationOf = async (id: number) => readJson(await call(emulator, `/packages/${id}/validate`, { method: "POST" }));

  it.each([
    ["without data_flow_json", { name: "no flow" }],
    ["with an empty flow", { name: "empty flow", data_flow_json: EMPTY }],
    ["with an empty flow as JSON text", { name: "empty text", data_flow_json: JSON.stringify(EMPTY) }],
  ])("is created %s, exports an empty flow, and fails validation once: the flow has no components", async (_, body) => {
    const pkg = await created(body);
    expect(pkg.name).toBe(body.name);
    expect((await exportOf(pkg.id)).data_flow_json).toEqual(EMPTY);
    const validation = await validationOf(pkg.id);
    expect(validation.status).toBe("failed");
    expect(validation.errors).toEqual([{ rule: "has-components", message: "the flow has no components" }]);
    expect(validation.status_message).toBe("the flow has no components");
  });

  it("is created from the export of a package without a flow, posted back as it is", async () => {
    const document = await exportOf(7101);
    expect(document.data_flow_json).toEqual(EMPTY);
    const copy = await created(document);
    expect(await exportOf(copy.id)).toEqual(document);
  });

  it("loses its flow when an update sends an empty one, and a package of the fixtures without a flow stays valid", async () => {
    const pkg = await created({ name: "emptied", data_flow_json: FLOW });
    const response = await call(emulator, `/packages/${pkg.id}`, { method: "PUT", body: { data_flow_json: EMPTY } });
    expect(response.status).toBe(200);
    expect((await exportOf(pkg.id)).data_flow_json).toEqual(EMPTY);
    expect((await validationOf(7101)).status).toBe("completed");
  });
});
