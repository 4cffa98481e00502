import { earliestOf, type AreaLifecycle, type Due, type LifecycleState } from "../../lifecycle/state";
import { nextRunFrom, SCHEDULES, type ScheduleRow } from "./model";
import { endRun, retry, retryDue, runEnd, startRun } from "./runs";

/**
 * Schedules: an enabled schedule fires at `next_run_at`, starting a run unless `overlap` is off
 * and an earlier run still goes (that run time is skipped, not counted), and then waits for the
 * next run time. Its runs move on as their jobs do: a failed job is retried at the moment it
 * fails, and a run ends when the last of its jobs has finished.
 */

function fire(state: LifecycleState, schedule: ScheduleRow, at: number): void {
  const skipped = !schedule.overlap && schedule.activeRuns.length > 0;
  if (!skipped) startRun(state.store, schedule, at);
  // The next run time is strictly later, so firing always moves the schedule on.
  state.store.update(SCHEDULES, schedule, { nextRunAt: nextRunFrom(schedule, state.store, at + 1) });
  state.rowsAdded();
}

function nextFiring(state: LifecycleState, schedule: ScheduleRow): Due | undefined {
  if (schedule.status !== "enabled" || schedule.nextRunAt === null) return undefined;
  return { at: Date.parse(schedule.nextRunAt), id: schedule.id, apply: (at) => fire(state, schedule, at) };
}

/** A retry at the failure it answers, or the end of the run once nothing of it is left to run. */
function nextRunStep(state: LifecycleState, schedule: ScheduleRow): Due | undefined {
  const { store } = state;
  return earliestOf(schedule.activeRuns, (run) => {
    const failed = retryDue(store, schedule, run);
    if (failed !== undefined) {
      const apply = (at: number) => {
        retry(store, schedule, run, failed, at);
        state.rowsAdded();
      };
      return { at: Date.parse(failed.statusSince), id: schedule.id, apply };
    }
    const end = runEnd(store, schedule, run);
    return end === undefined ? undefined : { at: end, id: schedule.id, apply: () => endRun(store, schedule, run) };
  });
}

function nextScheduleTransition(state: LifecycleState, schedule: ScheduleRow): Due | undefined {
  return earliestOf([nextRunStep(state, schedule), nextFiring(state, schedule)], (due) => due);
}

/** After clusters and jobs at one instant, so a run sees the jobs that finished at that instant. */
export const scheduleLifecycle: AreaLifecycle = {
  rank: 3,
  earliest: (state) => earliestOf(state.rows(SCHEDULES), (schedule) => nextScheduleTransition(state, schedule)),
};
