/**
 * How a Delivery's wait for its set-up ends, on the real engine: disabled while waited for
 * (its source connection deleted), an outage longer than the retry budget (the wait fails, the
 * delivery stays in the stack) and one shorter, met by the next `up`'s wait for the same
 * delivery (ridden out: the wait succeeds). The set-up is slow until the test has done its part,
 * then the service's clock is sped up: only the outages take real time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryArgs } from "pulumi-etl";
import { createTestStack, failureOf, type TestStack } from "../../support/engine";
import { eventually } from "../../support/cli";
import { startTestEmulator, type Emulator } from "../../support/service";
import { declare, type Surface } from "../../support/surfaces";

/** Slow enough that the set-up (120 simulated seconds) outlasts what the test does meanwhile. */
const WHILE_WAITING = 1;
const FINISH = 1_000;
/**
 * The outage the wait rides out: longer than the 2.6 s between its polls this early, so one at
 * least lands in it; its retries of a failed read come 1, 1.6 and 2.6 s apart, so the third
 * (5.2 s after the first failure) finds the service back, within the budget.
 */
const SHORT_OUTAGE_MS = 3_500;
const RETRY_BUDGET_SECONDS = 8;
const CRM = (id: number) => ({ id, name: `crm-${id}`, type: "crm_platform", crmObjects: [{ name: "Contact" }] });
const WAREHOUSE = {
  id: 301,
  name: "warehouse",
  type: "postgres",
  attributes: { username: "etl", password: "pw", host: "db.example.com", database: "analytics" },
};
const argsFrom = (sourceId: number): DeliveryArgs => ({
  name: `from ${sourceId}`,
  interval: { amount: 1, unit: "hours" },
  source: { connection: { id: sourceId, type: "crm_platform" }, properties: { object: "Contact" } },
  destination: { connection: { id: 301, type: "postgres" }, properties: { schema_name: "crm" } },
});

type DeliveryRow = { id: number; status: string };

// One surface, the plugin; what each surface adds is proven for every kind on both in test/engine (docs/development.md).
const surface: Surface = "plugin";

describe("a Delivery's wait (plugin)", { timeout: 300_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let declared: DeliveryArgs | undefined;
  const onOutput = (_text: string) => undefined;

  const deliveries = async (): Promise<DeliveryRow[]> => (await service.state()).accounts[0].deliveries;
  const idle = async () => (await deliveries()).find((d) => d.status === "idle");
  const inState = async () => ((await test.stack.exportStack()).deployment.resources ?? []).find((r: { urn: string }) => r.urn.endsWith("::feed"));
  /** Starts `up` and returns it once the delivery it creates is being set up. */
  async function upUntilSettingUp(args: DeliveryArgs): Promise<{ up: Promise<unknown>; delivery: DeliveryRow }> {
    declared = args;
    await service.setSpeed(WHILE_WAITING);
    const up = test.stack.up({ onOutput });
    up.catch(() => undefined);
    const delivery = await eventually("the delivery to be set up", idle);
    return { up, delivery };
  }

  beforeAll(async () => {
    service = await startTestEmulator({ speed: WHILE_WAITING, account: { connections: [WAREHOUSE, CRM(306), CRM(307)] } });
    test = await createTestStack(
      "delivery-waits",
      async () => void (declared === undefined ? undefined : declare(surface, "Delivery", "feed", { ...declared })),
      service,
      {},
      { plugin: true },
    );
    await test.stack.setAllConfig({ "etl:retryBudgetSeconds": { value: String(RETRY_BUDGET_SECONDS) }, "etl:maxRetries": { value: "1" } });
  });

  // No destroy: the emulator, and every object the stack made there, goes with it.
  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("disabled while waited for: up fails with the service's reason, and the delivery stays in the stack", async () => {
    const { up, delivery } = await upUntilSettingUp(argsFrom(306));
    expect((await service.api("DELETE", "/connections/crm_platform/306")).status).toBe(200);
    const failure = await failureOf(up);
    expect(failure).toContain(`delivery ${delivery.id} is disabled: its source connection 306 ("crm-306") was deleted`);
    expect((await inState())?.id).toBe(String(delivery.id));
    expect((await inState())?.outputs).toMatchObject({ status: "disabled" });
  });

  it("an outage longer than the retry budget: up fails naming the delivery and keeps it; the next up waits for the same one, rides out an outage shorter than the budget and succeeds", async () => {
    const { up, delivery } = await upUntilSettingUp(argsFrom(307));
    await service.emulator.suspend();
    const failure = await failureOf(up);
    await service.emulator.resume();
    expect(failure).toContain(`waiting for delivery ${delivery.id} (it is idle) failed`);
    expect(failure).toContain("ECONNREFUSED");
    expect(failure).toContain("it stays in the stack and the next `pulumi up` waits for it again");
    expect((await inState())?.id).toBe(String(delivery.id));

    // The delivery is still being set up (the clock is slow): the next up reads it, then polls it.
    await service.resetRequests();
    const next = test.stack.up({ onOutput });
    next.catch(() => undefined);
    const reads = async () => (await service.calls()).filter((call) => call === `GET /deliveries/${delivery.id}`);
    await eventually("the next up to poll the delivery", async () => ((await reads()).length >= 2 ? true : undefined));
    await service.emulator.outage(SHORT_OUTAGE_MS);
    await eventually(
      "the service to be back",
      () =>
        service.state().then(
          () => true,
          () => undefined,
        ),
      30_000,
    );
    await service.setSpeed(FINISH);
    await next;
    expect((await inState())?.id).toBe(String(delivery.id));
    expect((await inState())?.outputs).toMatchObject({ status: "enabled" });
    expect((await deliveries()).find((d) => d.id === delivery.id)?.status).toBe("enabled");
    expect((await deliveries()).filter((d) => d.status !== "disabled").map((d) => d.id)).toEqual([delivery.id]);
  });
});
