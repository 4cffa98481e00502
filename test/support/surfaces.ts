/**
 * The two ways programs reach the provider, for tests that must hold on both: the dynamic
 * resources (`new PublicKey(...)` from the package) and the plugin (`etl:index:PublicKey`).
 */
import type * as pulumi from "@pulumi/pulumi";
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
