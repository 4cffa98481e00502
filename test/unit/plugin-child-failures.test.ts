/**
 * A construct hears of a failed child before the engine does: the URN it watches is the one the
 * SDK gives the child, a failure ends the watch once, and the failure's answer waits for the
 * construct's; a failure seen before the watch began ends it at once.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { childFailures, childUrn } from "../../provider/plugin/child-failures";

const COMPONENT = "urn:pulumi:dev::shop::my:index:Group$etl:index:Pipeline::orders";

describe("a component's children's failures", () => {
  it("a child's URN is the one the SDK makes from its parent's", async () => {
    const parent = new pulumi.DependencyResource(COMPONENT);
    const made = await new Promise((resolve) => pulumi.createUrn("orders-package", "etl:index:Package", parent).apply(resolve));
    expect(childUrn(COMPONENT, "etl:index:Package", "orders-package")).toBe(made);
  });

  it("a watched child's failure ends the construct before the failure is answered; others are not its", async () => {
    const { childFailed, watchChildren } = childFailures();
    const order: string[] = [];
    const child = childUrn(COMPONENT, "etl:index:Package", "orders-package");
    const watch = watchChildren([child]);
    void watch.failure.then(() => order.push("construct answered"));
    await childFailed(childUrn(COMPONENT, "etl:index:Hook", "elsewhere"));
    expect(order).toEqual([]);
    await childFailed(child);
    order.push("failure answered");
    expect(order).toEqual(["construct answered", "failure answered"]);
    watch.stop();
    const late = watchChildren([child]);
    await expect(late.failure).resolves.toBeUndefined();
  });

  it("belong to one plugin's service: another service of the process has seen none of them", async () => {
    const child = childUrn(COMPONENT, "etl:index:Package", "orders-package");
    const first = childFailures();
    await first.childFailed(child);
    const second = childFailures();
    const watch = second.watchChildren([child]);
    const ended = await Promise.race([watch.failure.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);
    watch.stop();
    expect(ended).toBe(false);
    await expect(first.watchChildren([child]).failure).resolves.toBeUndefined();
  });
});
