import * as pulumi from "@pulumi/pulumi";
import { shimFor } from "../shim";

export const jobRunProvider = {
  async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
    return { inputs: news, failures: [{ property: "", reason: "JobRun is not available yet" }] };
  },
  async diff(): Promise<pulumi.dynamic.DiffResult> {
    return { changes: false };
  },
  async create(): Promise<pulumi.dynamic.CreateResult> {
    throw new Error("JobRun is not available yet");
  },
  async read(): Promise<pulumi.dynamic.ReadResult> {
    return {};
  },
  async delete(): Promise<void> {},
};

export class JobRun extends pulumi.dynamic.Resource {
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super(shimFor("JobRun"), name, args, opts, "etl", "JobRun");
  }
}
