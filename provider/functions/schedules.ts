/** Schedules by id and by search (facts, "Schedules"). */
import { z } from "zod";
import { getSchedule as fetchSchedule, scheduleRecord, searchSchedulesRequest, type ScheduleRecord } from "../api/schedules";
import { camelCased, type CamelCased } from "../api/records";
import { collectAllPages } from "../client/pagination";
import { programFunction, type FunctionContext } from "./context";
import { nonBlankText, parseArguments, recordId } from "./arguments";

export interface GetScheduleArgs {
  /** A number, or a string of digits (such as a Schedule's `id`). */
  scheduleId: number | string;
}

export interface SearchSchedulesArgs {
  /** The service's search language: `name:nightly`, `status:enabled`, `package:101`, free text. */
  q: string;
}

/** The schedule as the service returns it, with camelCase field names. */
export type ScheduleInfo = CamelCased<ScheduleRecord>;

const getArgs = z.strictObject({ scheduleId: recordId() });
const searchArgs = z.strictObject({ q: nonBlankText() });

export const getSchedule = programFunction(async function getSchedule(ctx: FunctionContext, args: GetScheduleArgs): Promise<ScheduleInfo> {
  const { scheduleId } = parseArguments("getSchedule", getArgs, args);
  return camelCased(await fetchSchedule(ctx.request, scheduleId));
});

/** Every schedule matching `q`, following the pages the service announces. */
export const searchSchedules = programFunction(async function searchSchedules(ctx: FunctionContext, args: SearchSchedulesArgs): Promise<ScheduleInfo[]> {
  const { q } = parseArguments("searchSchedules", searchArgs, args);
  const records = await collectAllPages(ctx.request, searchSchedulesRequest(q), scheduleRecord, { what: "schedules" });
  return records.map((record) => camelCased(record));
});
