/**
 * Schedule: runs packages periodically from `startAt`, each run a job per package (facts,
 * "Schedules"). Everything updates in place with a PUT of what differs; the service refuses a
 * new `startAt` once the schedule has run, so from then on a new one replaces the schedule. A
 * create whose outcome is unknown looks for a schedule made since it was sent with every field
 * asked for before sending again (see shared/reconciler.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listNewestSchedulesRequest,
  scheduleRecord,
  updateSchedule,
  type ScheduleRecord,
} from "../../api/schedules";
import type { OperationContext } from "../../context";
import { adoptionChange, objectToAdopt } from "../shared/adopt";
import { changedFields } from "../shared/diff";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { PIPELINE_TYPE } from "../../components/pipeline/args";
import { isUnknown } from "../shared/check";
import type { Reporter } from "../../progress";
import { createdLookup, newestListed } from "../shared/created-lookup";
import { tableOperations, type ScheduleInputs, type ScheduleOutputs } from "./fields";
import { scheduleExport } from "./export";
import { creationOrdered } from "../shared/batched-reads";
import { ResourceFailure } from "../shared/failures";

const KIND = "schedule";

/** Whether the inputs give the schedule a start other than the one it has. */
function startMoves(olds: ScheduleOutputs, news: ScheduleInputs): boolean {
  return changedFields(tableOperations.rules(news), olds, news).includes("startAt");
}

/**
 * The stack last saw the schedule before its first run, so the diff chose an update; if it has run
 * since, the service would refuse the new start, and only a replacement can give it.
 */
async function refuseStartOfScheduleThatHasRun(ctx: OperationContext, id: string, news: ScheduleInputs): Promise<void> {
  const { execution_count: runs } = await getSchedule(ctx.request, id);
  if (runs === 0) return;
  throw new ResourceFailure(
    `startAt: schedule ${id} has run ${runs} time${runs === 1 ? "" : "s"} since the stack last read it, and the service keeps a schedule's ` +
      `first start once it has run. Nothing was changed; run \`pulumi up --refresh\` to replace it with a schedule starting at ${String(news.startAt)}`,
  );
}

/** A PUT of what differs; no call when nothing does. */
async function update(ctx: OperationContext, id: string, olds: ScheduleOutputs, news: ScheduleInputs): Promise<ScheduleOutputs> {
  if (startMoves(olds, news)) await refuseStartOfScheduleThatHasRun(ctx, id, news);
  return tableOperations.updated(olds, news, (body) => updateSchedule(ctx.request, id, body));
}

async function adopt(ctx: OperationContext, importId: string, inputs: ScheduleInputs): Promise<ScheduleOutputs> {
  const record = await objectToAdopt(KIND, importId, () => getSchedule(ctx.request, importId));
  return adoptionChange(KIND, importId, () => update(ctx, importId, tableOperations.outputs(record, inputs), inputs));
}

/** The schedule a create may have made: made since it was sent, by this user, with everything sent. */
export const createdSchedule = createdLookup<ScheduleRecord, ScheduleInputs>({
  candidates: newestListed(scheduleRecord, "schedules", () => listNewestSchedulesRequest),
  madeBy: (record, inputs, owners) => owners.ownerMatches(record.owner_id) && tableOperations.hasSentValues(record, inputs),
});

const operations = standardOperations(tableOperations, {
  kind: KIND,
  create: createSchedule,
  findCreated: createdSchedule.find,
  get: getSchedule,
  listed: creationOrdered(scheduleExport),
  remove: ({ request }, id) => deleteSchedule(request, id),
  update,
  adopt,
});

/**
 * Whether the URN is a Pipeline's schedule, whose start the Pipeline gives: a cron's first time on
 * or after the Pipeline's fixed first day, in the past by design, which nobody wrote.
 */
function isPipelineSchedule(urn: string | undefined): boolean {
  const types = urn?.split("::")[2]?.split("$") ?? [];
  return types.at(-2) === PIPELINE_TYPE;
}

/** A `startAt` newly given in the past: the service starts at the next run time after now, without the runs before it. */
function warnOfPastStart(olds: Record<string, unknown>, news: Record<string, unknown>, report: Reporter): void {
  if (isPipelineSchedule(report.urn?.())) return;
  const startAt = news.startAt;
  if (typeof startAt !== "string" || isUnknown(startAt)) return;
  const at = Date.parse(startAt);
  if (Number.isNaN(at) || at >= Date.now() || at === Date.parse(String(olds.startAt))) return;
  report.note(`startAt ${startAt} lies in the past: the schedule runs from its next run time after now, and the runs before it are not made up`, "warning");
}

export const scheduleImplementation = {
  ...operations,

  async check(olds: Record<string, unknown>, news: Record<string, unknown>, report: Reporter) {
    const result = await operations.check(olds, news);
    if (result.ok) warnOfPastStart(olds, news, report);
    return result;
  },

  async diff(_id: string, olds: ScheduleOutputs, news: ScheduleInputs): Promise<pulumi.dynamic.DiffResult> {
    const result = tableOperations.diff(olds, news);
    if (!startMoves(olds, news) || (olds.executionCount ?? 0) === 0) return result;
    // The service keeps the first run's time once the schedule has run.
    return { ...result, replaces: [...(result.replaces ?? []), "startAt"] };
  },
} satisfies ResourceImplementation<ScheduleInputs, ScheduleOutputs>;
