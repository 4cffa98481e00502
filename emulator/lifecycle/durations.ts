/**
 * How long each timed step of a lifecycle takes, in simulated seconds (`--speed N` divides
 * them). The service documents none of them; they are short enough for a demo and long enough
 * to watch every state. A job's running time is its package's `run.seconds` fixture.
 */
export const LIFECYCLE_SECONDS = {
  cluster: {
    /** pending → creating */
    pending: 1,
    /** creating → available */
    creating: 20,
    /** scaling → available, after a change of nodes */
    scaling: 10,
    /** available → idle, counted from becoming available or from the end of the last job */
    idleAfter: 60,
    /** pending_terminate → terminating */
    pendingTerminate: 1,
    /** terminating → terminated */
    terminating: 5,
  },
  job: {
    /** idle → pending */
    idle: 1,
    /** pending → queued or running */
    pending: 2,
    /** pending_stoppage → stopping */
    pendingStoppage: 1,
    /** stopping → stopped */
    stopping: 2,
  },
  validation: {
    /** running → completed */
    running: 3,
  },
} as const;
