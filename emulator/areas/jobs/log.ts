import type { JobStatus } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import { clusterFacts } from "../clusters/interface";
import { packageSummary } from "../packages/interface";
import type { JobView } from "./json";
import { progressTime, visibleOutputs, type JobRow } from "./model";

/** The job's log (`GET /jobs/{id}/log`), written from its history: one line per step it reached. */

interface LogLine {
  at: number;
  text: string;
}

function describeStatus(job: JobRow, status: JobStatus, view: JobView): string {
  const pkg = packageSummary(view.store, job.accountId, job.packageId)?.name ?? `package ${job.packageId}`;
  const cluster = clusterFacts(view.store, job.accountId, job.clusterId)?.name ?? `cluster ${job.clusterId}`;
  const records = visibleOutputs(view.store, job).reduce((sum, output) => sum + output.records, 0);
  const texts: Record<JobStatus, string> = {
    idle: `Run of package '${pkg}' requested`,
    pending: "Initializing",
    queued: `Waiting for resources on cluster '${cluster}'`,
    running: `Running on cluster '${cluster}'`,
    completed: `Completed: ${records} records written`,
    failed: `Failed: ${job.errors}`,
    pending_stoppage: "Stop requested",
    stopping: "Stopping",
    stopped: "Stopped",
  };
  return texts[status];
}

/** One line per tenth of the run reached so far, between the start and the end of running. */
function progressLines(job: JobRow, view: JobView): LogLine[] {
  if (job.startedAt === null || job.run.seconds <= 0) return [];
  const start = Date.parse(job.startedAt);
  const step = view.store.clock.duration(job.run.seconds) / 10;
  const until = progressTime(job, view.now);
  const lines: LogLine[] = [];
  for (let tenth = 1; tenth < 10 && start + tenth * step <= until; tenth++) {
    lines.push({ at: start + tenth * step, text: `Progress ${tenth * 10}%` });
  }
  return lines;
}

/** The job's log so far, one line per transition and per progress step, oldest first. */
export function jobLog(job: JobRow, view: JobView): string {
  const transitions = job.history.map((entry) => ({ at: Date.parse(entry.at), text: describeStatus(job, entry.status, view) }));
  const lines = [...transitions, ...progressLines(job, view)].sort((a, b) => a.at - b.at);
  return lines.map((line) => `${isoTime(line.at)} ${line.text}`).join("\n");
}
