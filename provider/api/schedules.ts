/** Schedules: `{base_url}/schedules` (facts, "Schedules"). */
import { z } from "zod";
import type { ApiRequest } from "../client/http";
import { collection } from "./collection";

const dateTime = z.iso.datetime({ offset: true });
/** The service writes package ids as strings in its answers, as its documentation does. */
const packageId = z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform(Number);

export const scheduleRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z
    .string()
    .nullable()
    .transform((d) => d ?? ""),
  owner_id: z.number().int(),
  status: z.string(),
  start_at: dateTime.nullable(),
  next_run_at: dateTime.nullable(),
  last_run_at: dateTime.nullable(),
  last_run_status: z.string().nullable(),
  execution_count: z.number().int(),
  interval_amount: z.number().int(),
  interval_unit: z.string(),
  overlap: z.boolean(),
  auto_retry: z.boolean(),
  auto_retry_attempts: z.number().int(),
  reuse_cluster_strategy: z.string(),
  task: z.object({
    nodes: z.number().int(),
    terminate_on_idle: z.boolean(),
    time_to_idle: z.number().int(),
    packages: z.array(
      z.object({
        package_id: packageId,
        variables: z
          .record(z.string(), z.string())
          .nullable()
          .transform((v) => v ?? {}),
      }),
    ),
  }),
  created_at: dateTime,
  updated_at: dateTime,
  html_url: z.string(),
});
export type ScheduleRecord = z.output<typeof scheduleRecord>;

export const schedules = collection({ path: "/schedules", record: scheduleRecord, what: "a schedule" });

export const { create: createSchedule, get: getSchedule, update: updateSchedule, delete: deleteSchedule } = schedules;

/** The first page of the account's schedules, newest first; follow its `Link` for the rest. */
export const listNewestSchedulesRequest: ApiRequest = { method: "GET", path: "/schedules", query: { sort: "created", direction: "desc" } };

/** The first page of the schedules matching `q` in the service's search language. */
export function searchSchedulesRequest(q: string): ApiRequest {
  return { method: "GET", path: "/schedules/search", query: { q } };
}
