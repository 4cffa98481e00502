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
import type { RequestFn } from "../../client/http";
import { apiRequest } from "../../context";
import { adoptionChange, objectToAdopt } from "../shared/adopt";
import { changedFields } from "../shared/diff";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { createdInWindow, createdSince } from "../shared/reconcile";
import { reconciler, type Reconciler } from "../shared/reconciler";
import { fields, type ScheduleInputs, type ScheduleOutputs } from "./fields";
import { scheduleExport } from "./export";

const KIND = "schedule";

/** A PUT of what differs; no call when nothing does. */
function update(id: string, olds: ScheduleOutputs, news: ScheduleInputs): Promise<ScheduleOutputs> {
  return fields.updated(olds, news, (body) => updateSchedule(apiRequest(), id, body));
}

async function adopt(importId: string, inputs: ScheduleInputs): Promise<ScheduleOutputs> {
  const record = await objectToAdopt(KIND, importId, () => getSchedule(apiRequest(), importId));
  return adoptionChange(KIND, importId, () => update(importId, fields.outputs(record, inputs), inputs));
}

/** Whether a create sent at `sentAt` may have made this schedule: made since then, by this user, with everything sent. */
export function isScheduleCreatedBy(record: ScheduleRecord, inputs: ScheduleInputs, sentAt: number, owners: Pick<Reconciler, "ownerMatches"> = reconciler()): boolean {
  return createdInWindow(record.created_at, sentAt) && owners.ownerMatches(record.owner_id) && fields.hasSentValues(record, inputs);
}

export async function findCreatedSchedule(request: RequestFn, inputs: ScheduleInputs, sentAt: number): Promise<ScheduleRecord[]> {
  const recent = await createdSince(request, listNewestSchedulesRequest, scheduleRecord, "schedules", sentAt, (record) => record.created_at);
  return recent.filter((record) => isScheduleCreatedBy(record, inputs, sentAt));
}

export const scheduleProvider = {
  ...standardOperations(fields, {
    kind: KIND,
    create: createSchedule,
    findCreated: findCreatedSchedule,
    get: getSchedule,
    listed: scheduleExport,
    remove: deleteSchedule,
    update,
    adopt,
  }),

  async diff(_id: string, olds: ScheduleOutputs, news: ScheduleInputs): Promise<pulumi.dynamic.DiffResult> {
    const result = fields.diff(olds, news);
    const startMoves = changedFields(fields.rules(news), olds, news).includes("startAt");
    if (!startMoves || (olds.executionCount ?? 0) === 0) return result;
    // The service keeps the first run's time once the schedule has run.
    return { ...result, replaces: [...(result.replaces ?? []), "startAt"] };
  },
} satisfies ResourceImplementation<ScheduleInputs, ScheduleOutputs>;
