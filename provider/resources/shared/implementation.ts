/**
 * What every kind's implementation (`<kind>/implementation.ts`) has: the dynamic-provider methods with the
 * resource's own inputs (after `check`) and outputs; the calls that reach the service receive
 * the context of the provider they belong to (its settings and request function). The runtime dispatches to these; the
 * engine hands them values it has checked through `check` first.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OperationContext } from "../../context";
import type { Reporter } from "../../progress";

export interface ResourceImplementation<Inputs, Outputs> {
  /** `report` is the process's, for a warning about inputs that are valid. */
  check(olds: Record<string, unknown>, news: Record<string, unknown>, report: Reporter): Promise<{ inputs: unknown; failures?: pulumi.dynamic.CheckFailure[] }>;
  /** `context` is there for a diff that must ask the service (whose key this is), and throws when the settings are wrong. */
  diff(id: string, olds: Outputs, news: Inputs, context: () => OperationContext): Promise<pulumi.dynamic.DiffResult>;
  create(ctx: OperationContext, inputs: Inputs): Promise<pulumi.dynamic.CreateResult<Outputs>>;
  /** `inputs` realigns the inputs after a refresh; no `id` means the object is gone. */
  read(ctx: OperationContext, id: string, props: Outputs): Promise<{ id?: string; props?: Outputs; inputs?: Partial<Inputs> }>;
  /** Absent when every change replaces the resource. */
  update?(ctx: OperationContext, id: string, olds: Outputs, news: Inputs): Promise<pulumi.dynamic.UpdateResult<Outputs>>;
  delete(ctx: OperationContext, id: string, props: Outputs): Promise<void>;
}
