/**
 * What a Pipeline declares for its alert: an existing hook (`alertHookId`) goes to its package,
 * which reads it before it is made, and every other child waits for the package; a hook it
 * declares is made as `failureAlert` says, `active` included.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { type ChildKind, declarePipeline } from "../../provider/components/pipeline/children";

interface Declared {
  kind: ChildKind;
  args: Record<string, unknown>;
  opts: pulumi.CustomResourceOptions;
  child: pulumi.CustomResource;
}

/** The children a pipeline of these inputs declares, in order, each with its arguments and options. */
function childrenOf(args: Record<string, unknown>): Declared[] {
  const declared: Declared[] = [];
  const parent = {} as pulumi.Resource;
  declarePipeline(parent, "orders", { name: "orders", schedule: { cron: "0 6 * * *" }, ...args } as never, (kind, _name, childArgs, opts) => {
    const child = { id: pulumi.output(`${kind}-id`), nextRunAt: pulumi.output(undefined) } as unknown as pulumi.CustomResource;
    declared.push({ kind, args: childArgs, opts, child });
    return child;
  });
  return declared;
}

const resolved = (value: unknown) => new Promise((resolve) => (pulumi.output(value) as pulumi.Output<unknown>).apply(resolve));

const DELIVERY = {
  source: { connection: { id: 306, type: "crm_platform" } },
  destination: { connection: { id: 301, type: "postgres" } },
};

describe("a pipeline's alert", () => {
  it("gives an existing hook's id to the package, and makes every other child wait for the package", () => {
    const children = childrenOf({ alertHookId: 42, delivery: DELIVERY });
    expect(children.map((c) => c.kind)).toEqual(["Package", "Schedule", "Delivery"]);
    const [pkg, , delivery] = children;
    expect(pkg!.args.alertHookId).toBe(42);
    expect(delivery!.opts.dependsOn).toEqual([pkg!.child]);
  });

  it("leaves the package and the delivery as they were without one", () => {
    const children = childrenOf({ delivery: DELIVERY, failureAlert: { type: "web", settings: { url: "https://alerts.example.com" } } });
    expect(children.map((c) => c.kind)).toEqual(["Package", "Hook", "Schedule", "Delivery"]);
    expect("alertHookId" in children[0]!.args).toBe(false);
    expect(children[3]!.opts.dependsOn).toBeUndefined();
  });

  it("declares its own hook active or not, as failureAlert says", async () => {
    const hookOf = (failureAlert: Record<string, unknown>) => childrenOf({ failureAlert: { type: "web", settings: {}, ...failureAlert } })[1]!;
    const paused = hookOf({ active: false });
    expect(paused.kind).toBe("Hook");
    expect(await resolved(paused.args.active)).toBe(false);
    expect(await resolved(paused.args.events)).toEqual(["job.failed"]);
    expect(await resolved(hookOf({}).args.active)).toBeUndefined();
  });
});
