/**
 * `Pipeline` for TypeScript programs: the component with dynamic resources as its children. The
 * plugin constructs the same component with its own resource types (plugin/construct.ts).
 */
import { Delivery, Hook, Package, Schedule } from "../../resources/classes";
import * as pulumi from "@pulumi/pulumi";
import { PIPELINE_TYPE, type PipelineArgs } from "./args";
import { type ChildKind, type ChildMaker, checkPlainInputs, declarePipeline } from "./children";

export { PIPELINE_TYPE, type PipelineArgs } from "./args";
export { PipelineInputError } from "./children";

const CLASSES = { Package, Schedule, Hook, Delivery } as const satisfies Record<ChildKind, unknown>;

const dynamicChild: ChildMaker = (kind, name, args, opts) => {
  const made = CLASSES[kind] as unknown as new (name: string, args: Record<string, unknown>, opts: pulumi.CustomResourceOptions) => pulumi.CustomResource;
  return new made(name, args, opts);
};

/** The inputs are checked before anything is registered, so a wrong one leaves no half-made pipeline behind. */
function checked(name: string, args: PipelineArgs, opts: pulumi.ComponentResourceOptions | undefined): pulumi.ComponentResourceOptions | undefined {
  checkPlainInputs(name, args);
  return opts;
}

/**
 * A team's ETL set-up in one declaration: a package with its flow, run on a schedule (cron or
 * interval) on a cluster of a chosen size, a hook that alerts on failed runs, and a delivery when
 * asked for. Each is an ordinary resource under the component, shown on its own in a preview.
 */
export class Pipeline extends pulumi.ComponentResource {
  declare readonly packageId: pulumi.Output<string>;
  declare readonly scheduleId: pulumi.Output<string>;
  declare readonly nextRunAt: pulumi.Output<string | undefined>;
  declare readonly hookId: pulumi.Output<string | undefined>;
  declare readonly deliveryId: pulumi.Output<string | undefined>;

  constructor(name: string, args: PipelineArgs, opts?: pulumi.ComponentResourceOptions) {
    super(PIPELINE_TYPE, name, {}, checked(name, args, opts));
    const outputs = declarePipeline(this, name, args, dynamicChild);
    Object.assign(this, outputs);
    this.registerOutputs(outputs);
  }
}
