import { SCHEDULE_STATUSES } from "../../../contract/vocabularies";
import { MAX_NAME_LENGTH } from "../../../contract/text";
import { parseBody, readObjectBody } from "../../body";
import { isoTime } from "../../clock";
import { HttpError, sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { readStatusFilter, readTimeFilter } from "../../query";
import { findOwnRow, type ApiContext, type Route } from "../../routing";
import { searchRecords } from "../../search";
import { sortRecords, type SortKeys } from "../../sorting";
import { BILLING_REQUIRED_MESSAGE } from "../jobs/interface";
import { applyBody, checkPackages, checkStartAt, createBodySchema, defaultSettings, updateBodySchema } from "./body";
import { scheduleJson } from "./json";
import { insertSchedule, nextRunFrom, SCHEDULES, settingsOf, type ScheduleRow, type ScheduleSettings } from "./model";
import { startRun } from "./runs";
import { scheduleSearch } from "./search";
import { notifyStatusWatchers, scheduleWatcherRoute } from "./watchers";

/** Schedules (facts, "Schedules"): kept here, fired by their lifecycle. */

function sendSchedule(ctx: ApiContext, status: number, schedule: ScheduleRow): void {
  sendJson(ctx.res, status, scheduleJson(schedule, ctx.baseUrl));
}

function sendSchedules(ctx: ApiContext, schedules: readonly ScheduleRow[]): void {
  sendPage(ctx, schedules, (schedule) => scheduleJson(schedule, ctx.baseUrl));
}

function createFor(ctx: ApiContext, settings: ScheduleSettings): ScheduleRow {
  return insertSchedule(ctx.store, { ...settings, accountId: ctx.caller.account.id, ownerId: ctx.caller.user.id });
}

async function createSchedule(ctx: ApiContext): Promise<void> {
  const body = parseBody(createBodySchema, await readObjectBody(ctx.req));
  checkPackages(ctx, body.task.packages);
  sendSchedule(ctx, 201, createFor(ctx, applyBody(defaultSettings(ctx.store.clock.now()), body)));
}

const listSortKeys: SortKeys<ScheduleRow> = {
  created: (schedule) => schedule.createdAt,
  updated: (schedule) => schedule.updatedAt,
};

/** Newest first unless asked otherwise; `since` keeps those updated at or after it (facts). */
function listSchedules(ctx: ApiContext): void {
  const status = readStatusFilter(ctx.query, SCHEDULE_STATUSES);
  const since = readTimeFilter(ctx.query, "since");
  const schedules = ctx.store
    .list(SCHEDULES, ctx.caller.account.id)
    .filter((s) => (status === undefined || s.status === status) && (since === undefined || Date.parse(s.updatedAt) >= since));
  sendSchedules(ctx, sortRecords(schedules, ctx.query, listSortKeys, "desc"));
}

/** The search language, most relevant first unless asked otherwise (facts, "Search endpoints"). */
function searchSchedules(ctx: ApiContext): void {
  const schedules = ctx.store.list(SCHEDULES, ctx.caller.account.id);
  sendSchedules(ctx, searchRecords(schedules, ctx.query, scheduleSearch(ctx.store)));
}

function getSchedule(ctx: ApiContext): void {
  sendSchedule(ctx, 200, findOwnRow(ctx, SCHEDULES));
}

/** A new start, interval or status moves the next run; runs missed meanwhile are not made up for. */
function timingChanged(schedule: ScheduleRow, settings: ScheduleSettings): boolean {
  return (
    settings.status !== schedule.status ||
    settings.startAt !== schedule.startAt ||
    settings.intervalAmount !== schedule.intervalAmount ||
    settings.intervalUnit !== schedule.intervalUnit
  );
}

/** An update that changes nothing leaves `updated_at`, the next run and the watchers alone. */
function applyUpdate(ctx: ApiContext, schedule: ScheduleRow, settings: ScheduleSettings): void {
  if (JSON.stringify(settings) === JSON.stringify(settingsOf(schedule))) return;
  const now = ctx.store.clock.now();
  const retimed = timingChanged(schedule, settings);
  const statusChanged = settings.status !== schedule.status;
  ctx.store.update(SCHEDULES, schedule, { ...settings, updatedAt: isoTime(now) });
  if (retimed) ctx.store.update(SCHEDULES, schedule, { nextRunAt: nextRunFrom(schedule, ctx.store, now) });
  if (statusChanged) notifyStatusWatchers(ctx.store, schedule, now);
}

async function updateSchedule(ctx: ApiContext): Promise<void> {
  // A missing schedule is reported before what is wrong with the body meant for it.
  const raw = await readObjectBody(ctx.req);
  const schedule = findOwnRow(ctx, SCHEDULES);
  const body = parseBody(updateBodySchema, raw);
  checkPackages(ctx, body.task?.packages);
  checkStartAt(schedule, body);
  applyUpdate(ctx, schedule, applyBody(settingsOf(schedule), body));
  sendSchedule(ctx, 200, schedule);
}

/** A hard delete, answered with the schedule as it was; the jobs it started carry on. */
function deleteSchedule(ctx: ApiContext): void {
  const schedule = ctx.store.remove(SCHEDULES, findOwnRow(ctx, SCHEDULES));
  sendSchedule(ctx, 200, schedule);
}

/** "Copy of " and the name, cut to the longest name allowed. */
function copyName(name: string): string {
  return [...`Copy of ${name}`].slice(0, MAX_NAME_LENGTH).join("");
}

/** The copy has the same settings, belongs to the caller and starts disabled, so it never runs twice by surprise. */
function cloneSchedule(ctx: ApiContext): void {
  const original = findOwnRow(ctx, SCHEDULES);
  const settings = { ...settingsOf(original), name: copyName(original.name), status: "disabled" as const };
  sendSchedule(ctx, 201, createFor(ctx, settings));
}

/** A run now, whatever the status and `overlap`: it is asked for. Runs need billing, as jobs do. */
function runNow(ctx: ApiContext): void {
  const schedule = findOwnRow(ctx, SCHEDULES);
  if (!ctx.caller.account.billing) throw new HttpError(402, BILLING_REQUIRED_MESSAGE);
  startRun(ctx.store, schedule, ctx.store.clock.now());
  sendSchedule(ctx, 200, schedule);
}

export const schedulesRoutes: readonly Route[] = [
  { pattern: /^\/schedules$/, methods: { GET: listSchedules, POST: createSchedule } },
  { pattern: /^\/schedules\/search$/, methods: { GET: searchSchedules } },
  { pattern: /^\/schedules\/([^/]+)\/clone$/, methods: { POST: cloneSchedule } },
  { pattern: /^\/schedules\/([^/]+)\/run$/, methods: { POST: runNow } },
  scheduleWatcherRoute,
  { pattern: /^\/schedules\/([^/]+)$/, methods: { GET: getSchedule, PUT: updateSchedule, DELETE: deleteSchedule } },
];
