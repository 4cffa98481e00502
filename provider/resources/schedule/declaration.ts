import { scheduleRecord } from "../../api/schedules";
import { declareResource } from "../shared/declaration";
import { scheduleExport } from "./export";
import { tableOperations } from "./fields";
import { scheduleImplementation } from "./implementation";
import type { RecoverDeclaration } from "../shared/recovery";
import { createdSchedule } from "./implementation";

/** Recovering schedules: by name, made in the deployment's window with the task asked for. */
const scheduleRecover: RecoverDeclaration = { by: "its name", find: createdSchedule.find };

export const scheduleDeclaration = declareResource({
  kind: "Schedule",
  description: "Runs a package on a cluster at set times.",
  notes: [
    'Package variables are expressions: a text value carries single quotes inside the string (`"\'eu\'"`). `etl.stringLiteral("eu")` writes one, and refuses text with a quote, for which the service documents no escape:',
    "",
    "```ts",
    'import * as etl from "pulumi-etl";',
    "",
    'new etl.Schedule("nightly-rollup", {',
    '  name: "nightly rollup",',
    '  startAt: "2030-01-01T02:00:00Z",',
    '  interval: { amount: 1, unit: "days" },',
    '  task: { nodes: 2, packages: [{ packageId: 101, variables: { region: etl.stringLiteral("eu") } }] },',
    "});",
    "```",
    "",
    "`status`, `nextRunAt`, `lastRunAt`, `lastRunStatus`, `executionCount` and the timestamps move on their own and never cause a change. Once a schedule has run, the service keeps its first start, so a new `startAt` replaces the schedule (the preview shows the replacement on `startAt`). A schedule that ran since the stack last read it fails `up` naming `startAt`, with nothing changed; `pulumi up --refresh` then replaces it.",
    "",
    "[examples/nightly-pipeline](../../../examples/nightly-pipeline) declares a nightly schedule and a web hook for failed jobs (`pulumi up` in that folder, against the emulator's default account).",
  ],
  implementation: scheduleImplementation,
  recover: scheduleRecover,
  export: scheduleExport,
  resourceInputs: [{ path: "task.packages.*.packageId", kind: "Package" }],
  tableOperations,
  record: scheduleRecord,
  secrets: [],
  example: {
    name: "nightly orders rollup",
    startAt: "2030-01-01T02:00:00Z",
    interval: { amount: 1, unit: "days" },
    task: { nodes: 2, packages: [{ packageId: 101 }] },
  },
});

export { stringLiteral } from "./fields";
export type { ScheduleArgs, ScheduleOutputs, ScheduledPackageArgs, ScheduleTaskArgs } from "./fields";
