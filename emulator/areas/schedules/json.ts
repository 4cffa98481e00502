import { creatorJson } from "../../creators";
import { webAppUrl } from "../../routing";
import type { Store } from "../../store";
import { SCHEDULES, type ScheduleRow } from "./model";

/** The service's JSON for schedules (facts, "Schedule response fields"), and for the jobs they start. */

export function scheduleUrl(baseUrl: string, id: number): string {
  return `${baseUrl}/schedules/${id}`;
}

function scheduleHtmlUrl(baseUrl: string, id: number): string {
  return `${webAppUrl(baseUrl)}/schedules/${id}`;
}

function taskJson(schedule: ScheduleRow): Record<string, unknown> {
  const { task } = schedule;
  return {
    nodes: task.nodes,
    terminate_on_idle: task.terminateOnIdle,
    time_to_idle: task.timeToIdle,
    // The documentation's examples write package ids as strings, so the service's answers do too.
    packages: task.packages.map((item) => ({ package_id: String(item.packageId), variables: item.variables })),
  };
}

export function scheduleJson(schedule: ScheduleRow, baseUrl: string): Record<string, unknown> {
  return {
    id: schedule.id,
    name: schedule.name,
    description: schedule.description,
    owner_id: schedule.ownerId,
    status: schedule.status,
    start_at: schedule.startAt,
    next_run_at: schedule.nextRunAt,
    last_run_at: schedule.lastRunAt,
    last_run_status: schedule.lastRunStatus,
    execution_count: schedule.executionCount,
    interval_amount: schedule.intervalAmount,
    interval_unit: schedule.intervalUnit,
    overlap: schedule.overlap,
    auto_retry: schedule.autoRetry,
    auto_retry_attempts: schedule.autoRetryAttempts,
    reuse_cluster_strategy: schedule.reuseClusterStrategy,
    task: taskJson(schedule),
    created_at: schedule.createdAt,
    updated_at: schedule.updatedAt,
    url: scheduleUrl(baseUrl, schedule.id),
    html_url: scheduleHtmlUrl(baseUrl, schedule.id),
  };
}

/** A job's `creator` when a schedule started it; a deleted schedule is still named by its id. */
export function scheduleCreatorJson(store: Store, accountId: number, scheduleId: number, baseUrl: string): Record<string, unknown> {
  const name = store.find(SCHEDULES, accountId, scheduleId)?.name;
  return creatorJson({ type: "Schedule", id: scheduleId, name, url: scheduleUrl(baseUrl, scheduleId), htmlUrl: scheduleHtmlUrl(baseUrl, scheduleId) });
}
