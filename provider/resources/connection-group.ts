import * as pulumi from "@pulumi/pulumi";
import { shimFor } from "../shim";

export const connectionGroupProvider = {
  async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
    return { inputs: news, failures: [{ property: "", reason: "ConnectionGroup is not available yet" }] };
  },
  async diff(): Promise<pulumi.dynamic.DiffResult> {
    return { changes: false };
  },
  async create(): Promise<pulumi.dynamic.CreateResult> {
    throw new Error("ConnectionGroup is not available yet");
  },
  async read(): Promise<pulumi.dynamic.ReadResult> {
    return {};
  },
  async delete(): Promise<void> {},
};

export class ConnectionGroup extends pulumi.dynamic.Resource {
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super(shimFor("ConnectionGroup"), name, args, opts, "etl", "ConnectionGroup");
  }
}
