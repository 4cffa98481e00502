/**
 * What every resource's provider object implements: the dynamic-provider methods with the
 * resource's own inputs (after `check`) and outputs. The runtime dispatches to these; the
 * engine hands them values it has checked through `check` first.
 */
import type * as pulumi from "@pulumi/pulumi";

export interface ResourceImplementation<Inputs, Outputs> {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ inputs: unknown; failures?: pulumi.dynamic.CheckFailure[] }>;
  diff(id: string, olds: Outputs, news: Inputs): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult<Outputs>>;
  /** `inputs` realigns the inputs after a refresh; no `id` means the object is gone. */
  read(id: string, props: Outputs): Promise<{ id?: string; props?: Outputs; inputs?: Partial<Inputs> }>;
  /** Absent when every change replaces the resource. */
  update?(id: string, olds: Outputs, news: Inputs): Promise<pulumi.dynamic.UpdateResult<Outputs>>;
  delete(id: string, props: Outputs): Promise<void>;
}
