/**
 * The two ways programs reach the provider, for tests that must hold on both: the dynamic
 * resources (`new PublicKey(...)` from the package) and the plugin (`etl:index:PublicKey`).
 */
import * as pulumi from "@pulumi/pulumi";
import * as etl from "pulumi-etl";
import type { ResourceKind } from "pulumi-etl/plugin";
import { pluginResource } from "./plugin";

export type Surface = "dynamic" | "plugin";
export const SURFACES: readonly Surface[] = ["dynamic", "plugin"];

/** The type token a resource of this kind has in state on a surface. */
export function typeOf(surface: Surface, kind: ResourceKind): string {
  return surface === "plugin" ? `etl:index:${kind}` : `pulumi-nodejs:dynamic/etl:${kind}`;
}

/** The kind of a state entry of either surface, or undefined for anything else. */
export function kindOfType(type: string): ResourceKind | undefined {
  const match = /^(?:pulumi-nodejs:dynamic\/etl:|etl:index:)(\w+)$/.exec(type);
  return match ? (match[1] as ResourceKind) : undefined;
}

type Declared = pulumi.CustomResource & Record<string, pulumi.Output<any>>;

/** Declares a resource of `kind` on a surface, as a program of that surface would. */
export function declare(surface: Surface, kind: ResourceKind, name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions): Declared {
  if (surface === "plugin") return pluginResource(kind, name, args, opts);
  const made = etl[kind] as unknown as new (name: string, args: unknown, opts?: pulumi.CustomResourceOptions) => Declared;
  return new made(name, args, opts);
}

/** A generated SDK's component class, generically: the plugin constructs it (`remote`), its outputs declared. */
class RemotePipeline extends pulumi.ComponentResource {
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.ComponentResourceOptions) {
    const outputs = { packageId: undefined, scheduleId: undefined, nextRunAt: undefined, hookId: undefined, deliveryId: undefined };
    super("etl:index:Pipeline", name, { ...outputs, ...args }, opts, true);
  }
}

/** A `Pipeline` on a surface: the package's class, or the plugin's component; its outputs by name. */
export function declarePipeline(
  surface: Surface,
  name: string,
  args: etl.PipelineArgs,
  opts?: pulumi.ComponentResourceOptions,
): Record<string, pulumi.Output<any>> {
  const made = surface === "plugin" ? new RemotePipeline(name, args, opts) : new etl.Pipeline(name, args, opts);
  return made as unknown as Record<string, pulumi.Output<any>>;
}
