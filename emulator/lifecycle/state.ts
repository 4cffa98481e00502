import { CLUSTERS, type ClusterRow } from "../model/clusters";
import { JOBS, type JobRow } from "../model/jobs";
import { PACKAGE_VALIDATIONS, type PackageValidationRow } from "../model/packages";
import type { Store } from "../store";

/**
 * The rows lifecycles act on, read once per advance with the indexes transitions need.
 * Transitions change rows in place and never add any, so the lists stay complete.
 */
export class LifecycleState {
  readonly clusters: readonly ClusterRow[];
  readonly jobs: readonly JobRow[];
  readonly validations: readonly PackageValidationRow[];
  private readonly clustersById = new Map<number, ClusterRow>();
  private readonly jobsByCluster = new Map<number, JobRow[]>();

  constructor(readonly store: Store) {
    this.clusters = store.list(CLUSTERS);
    this.jobs = store.list(JOBS);
    this.validations = store.list(PACKAGE_VALIDATIONS);
    for (const cluster of this.clusters) this.clustersById.set(cluster.id, cluster);
    for (const job of this.jobs) {
      const onCluster = this.jobsByCluster.get(job.clusterId);
      if (onCluster === undefined) this.jobsByCluster.set(job.clusterId, [job]);
      else onCluster.push(job);
    }
  }

  /** Jobs ever run on the cluster, oldest first. */
  jobsOn(clusterId: number): readonly JobRow[] {
    return this.jobsByCluster.get(clusterId) ?? [];
  }

  clusterOf(job: JobRow): ClusterRow | undefined {
    return this.clustersById.get(job.clusterId);
  }

  /** Wall-clock milliseconds of a simulated duration. */
  duration(seconds: number): number {
    return this.store.clock.duration(seconds);
  }
}

/**
 * The next thing time does to one record: at `at` (wall-clock ms) `apply` moves it on. Ties
 * are broken by `rank` (clusters before jobs, so a job sees its cluster's new state), then id.
 */
export interface Transition {
  at: number;
  rank: number;
  id: number;
  apply(at: number): void;
}

export function comesBefore(a: Transition, b: Transition): boolean {
  if (a.at !== b.at) return a.at < b.at;
  if (a.rank !== b.rank) return a.rank < b.rank;
  return a.id < b.id;
}
