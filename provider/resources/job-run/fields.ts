/**
 * JobRun's fields. A job cannot be changed once it runs, so whatever defines the run (cluster,
 * package, variables, triggers) replaces it; how `up` waits (`waitForCompletion`,
 * `timeoutSeconds`) is the provider's own and only recorded.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { JobOutputRecord, JobRecord } from "../../api/jobs";
import { importIdField } from "../shared/adopt";
import type { ObjectReference } from "../shared/references";
import { objectIdInput } from "../shared/check";
import { JOB_STATUSES } from "../../../contract/vocabularies";
import { definedOnly, fieldOperations, output, takes, OUTPUT, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";

/** One output of the job: what a program or a reviewer uses, not the service's bookkeeping. */
export interface JobRunOutput {
  id: number;
  name: string;
  recordsCount: number;
  previewUrl?: string;
}

const MAX_TIMEOUT_SECONDS = 604_800;

/** Spec 2.3: variable values are strings. */
const variables = z.record(z.string(), z.string());

function outputOf(output: JobOutputRecord): JobRunOutput {
  return definedOnly({ id: output.id, name: output.name, recordsCount: output.records_count, previewUrl: output.preview_url ?? undefined });
}

const table = {
  /** The cluster to run on: a `Cluster`, or its id as a number or a string. */
  clusterId: {
    program: takes<ObjectReference>(),
    input: objectIdInput(201),
    required: true,
    api: "cluster_id",
    onChange: "replace",
    refersTo: { to: "cluster", checkedByService: true },
  },
  /** The package the job runs: a `Package`, or its id as a number or a string. */
  packageId: {
    program: takes<ObjectReference>(),
    input: objectIdInput(101),
    required: true,
    api: "package_id",
    onChange: "replace",
    refersTo: { to: "package", checkedByService: true },
  },
  // The service records an omitted variables object as an empty one.
  /** Static variables of the job. */
  variables: { program: takes<pulumi.Input<Record<string, pulumi.Input<string>>>>(), input: variables, default: {}, api: "variables", onChange: "replace" },
  /** Variables evaluated when the job runs. */
  dynamicVariables: {
    program: takes<pulumi.Input<Record<string, pulumi.Input<string>>>>(),
    input: variables,
    default: {},
    api: "dynamic_variables",
    onChange: "replace",
  },
  /** Any value; when it changes, the package runs again. */
  triggers: { program: takes<pulumi.Input<unknown>>(), input: z.json(), onChange: "replace" },
  /** Whether `up` waits for the job to finish and fails when the job fails (default true). */
  waitForCompletion: { input: z.boolean(), default: true, onChange: "update" },
  /** How long `up` waits before stopping the job and failing (default 3600, at most a week). */
  timeoutSeconds: {
    input: z.number().min(1).max(MAX_TIMEOUT_SECONDS).refine(Number.isInteger, "must be a whole number of seconds"),
    default: 3_600,
    onChange: "update",
  },
  /** The id of an existing job to take over instead of running a new one. */
  importId: importIdField,
  status: output(`One of ${JOB_STATUSES.join(", ")}.`),
  ownerId: OUTPUT,
  progress: output("How far the job is, from 0 to 100."),
  outputs: { description: "What each of the job's outputs holds: its name, records and preview address.", read: (r) => r.outputs.map(outputOf) },
  startedAt: output("When the job started running."),
  createdAt: OUTPUT,
  failedAt: output("When the job failed."),
  completedAt: output("When the job completed."),
  errors: output("What went wrong, when the job failed."),
  runtimeInSeconds: output("How long the job ran."),
  htmlUrl: OUTPUT,
  logUrl: output("Where the job's log can be read."),
} satisfies Record<string, Field<JobRecord>>;

/** What a program passes. */
export type JobRunArgs = ArgsOf<typeof table>;

export const tableOperations = fieldOperations<JobRecord, typeof table>(table);

export type JobRunInputs = InputsOf<typeof table>;
export type JobRunOutputs = OutputsOf<typeof table, JobRecord>;

/** How `up` waits for these inputs, defaults applied. */
export function waitSettingsOf(inputs: Partial<JobRunInputs>): { waitForCompletion: boolean; timeoutSeconds: number } {
  const given = inputs as JobRunInputs;
  return {
    waitForCompletion: tableOperations.desired("waitForCompletion", given) as boolean,
    timeoutSeconds: tableOperations.desired("timeoutSeconds", given) as number,
  };
}
