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
import { EtlApiError } from "../../client/errors";
import type { RequestFn } from "../../client/http";
import { collectAllPages } from "../../client/pagination";
import { apiRequest } from "../../context";
import { AdoptionError, objectToAdopt } from "../shared/adopt";
import { checkWithSchema } from "../shared/check";
import { changedFields } from "../shared/diff";
import { unlessGone } from "../shared/gone";
import type { ResourceImplementation } from "../shared/implementation";
import { createdInWindow, MAX_RECENT_PAGES, windowStart } from "../shared/reconcile";
import { reconciler, type Reconciler } from "../shared/reconciler";
import { fields, type ScheduleInputs, type ScheduleOutputs } from "./fields";

const KIND = "schedule";

/** A PUT of what differs; no call when nothing does. */
async function update(id: string, olds: ScheduleOutputs, news: ScheduleInputs): Promise<ScheduleOutputs> {
  const body = fields.updateBody(olds, news);
  if (Object.keys(body).length === 0) return fields.withOwnInputs(olds, news);
  return fields.outputs(await updateSchedule(apiRequest(), id, body), news);
}

async function adopt(importId: string, inputs: ScheduleInputs): Promise<ScheduleOutputs> {
  const record = await objectToAdopt(KIND, importId, () => getSchedule(apiRequest(), importId));
  try {
    return await update(importId, fields.outputs(record, inputs), inputs);
  } catch (error) {
    // Nothing changed, so nothing is kept: the next `up` tries the adoption afresh.
    if (error instanceof EtlApiError) throw new AdoptionError(KIND, importId, error.message);
    throw error;
  }
}

/** Whether a create sent at `sentAt` may have made this schedule: made since then, by this user, with everything sent. */
export function isScheduleCreatedBy(record: ScheduleRecord, inputs: ScheduleInputs, sentAt: number, owners: Pick<Reconciler, "ownerMatches"> = reconciler()): boolean {
  return createdInWindow(record.created_at, sentAt) && owners.ownerMatches(record.owner_id) && fields.hasSentValues(record, inputs);
}

export async function findCreatedSchedule(request: RequestFn, inputs: ScheduleInputs, sentAt: number): Promise<ScheduleRecord[]> {
  const since = windowStart(sentAt);
  const isOlder = (record: ScheduleRecord) => Date.parse(record.created_at) < since;
  const recent = await collectAllPages(request, listNewestSchedulesRequest, scheduleRecord, { what: "schedules", maxPages: MAX_RECENT_PAGES, until: isOlder });
  return recent.filter((record) => isScheduleCreatedBy(record, inputs, sentAt));
}

export const scheduleProvider = {
  async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
    return checkWithSchema(fields.inputSchema, news);
  },

  async diff(_id: string, olds: ScheduleOutputs, news: ScheduleInputs): Promise<pulumi.dynamic.DiffResult> {
    const result = fields.diff(olds, news);
    const startMoves = changedFields(fields.rules(news), olds, news).includes("startAt");
    if (!startMoves || (olds.executionCount ?? 0) === 0) return result;
    // The service keeps the first run's time once the schedule has run.
    return { ...result, replaces: [...(result.replaces ?? []), "startAt"] };
  },

  async create(inputs: ScheduleInputs): Promise<pulumi.dynamic.CreateResult<ScheduleOutputs>> {
    if (inputs.importId !== undefined) return { id: inputs.importId, outs: await adopt(inputs.importId, inputs) };
    const request = apiRequest();
    const body = fields.createBody(inputs);
    const { record } = await reconciler().createOnce({
      kind: KIND,
      request,
      send: () => createSchedule(request, body),
      find: (sentAt, lookup) => findCreatedSchedule(lookup, inputs, sentAt),
      idOf: (schedule) => schedule.id,
    });
    reconciler().noteOwner(record.owner_id);
    return { id: String(record.id), outs: fields.outputs(record, inputs) };
  },

  async read(id: string, props: ScheduleOutputs) {
    return fields.readResult(id, await unlessGone(getSchedule(apiRequest(), id)), props);
  },

  async update(id: string, olds: ScheduleOutputs, news: ScheduleInputs): Promise<pulumi.dynamic.UpdateResult<ScheduleOutputs>> {
    return { outs: await update(id, olds, news) };
  },

  async delete(id: string): Promise<void> {
    await unlessGone(deleteSchedule(apiRequest(), id));
  },
} satisfies ResourceImplementation<ScheduleInputs, ScheduleOutputs>;
