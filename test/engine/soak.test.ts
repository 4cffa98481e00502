/**
 * Soak under faults through the real engine: a stack of every resource kind goes through up,
 * refresh and destroy SOAK_CYCLES times (default 1; `npm run bench:soak` runs the long soak, and
 * measures a fault-free cycle first for its numbers) on each surface (the dynamic resources and the plugin) while the emulator injects faults
 * (SOAK_FAULT_RATE, default 0.2, every kind), and as many operations again are cut by an outage
 * longer than the retry budget or cancelled (SIGINT): the first cycle's first two attempts meet
 * one each. The faults and interruptions are drawn from
 * SOAK_SEED (default a fixed seed, printed: the same seed replays a failed run). After every
 * attempt the service and the state must agree: nothing orphaned, duplicated or lost, nothing
 * left after destroy, and the API key and the connections' password nowhere in the output or the
 * stack's files.
 */
import { appendFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KIND_TESTS } from "../kinds";
import {
  addServiceMade,
  type Baseline,
  describeDiscrepancy,
  findDiscrepancies,
  formatReport,
  type Kind,
  KINDS,
  runSoak,
  type StateResource,
} from "../support/soak";
import { SURFACES } from "../support/surfaces";

function numberSetting(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of at least 0, got "${text}"`);
  return value;
}

/** Cycles on each surface: one, whose first attempts are cut by each kind of interruption in turn, for sure. */
const CYCLES = numberSetting("SOAK_CYCLES", 1);
const FAULT_RATE = numberSetting("SOAK_FAULT_RATE", 0.2);
/** Fixed, so every run meets the same faults for the same requests; a failure names it (and it is printed) to replay it. */
const SEED = numberSetting("SOAK_SEED", 710_253);
/** A cycle takes about 15 s; failed attempts add to it, the baseline cycle and set-up too. */
const TIMEOUT_MS = (CYCLES + 2) * 90_000;
/** The fault-free cycle the report's extra calls are counted against: the benchmark's (SOAK_BASELINE=1), not needed for agreement. */
const MEASURE_BASELINE = process.env.SOAK_BASELINE === "1";

describe.each(SURFACES)("soak under faults (%s)", (surface) => {
  it(`${CYCLES} cycles of up, refresh and destroy at fault rate ${FAULT_RATE} (seed ${SEED}): an outage and a cancellation land, and service and state always agree`, {
    timeout: TIMEOUT_MS,
  }, async () => {
    console.log(`[${surface}] soak of ${CYCLES} cycles, seed ${SEED}: SOAK_SEED=${SEED} SOAK_CYCLES=${CYCLES} replays it`);
    const report = await runSoak({
      surface,
      cycles: CYCLES,
      faultRate: FAULT_RATE,
      seed: SEED,
      measureBaseline: MEASURE_BASELINE,
      log: (line) => console.log(`[${surface}] ${line}`),
    });
    const table = formatReport(report);
    console.log(table);
    if (process.env.SOAK_REPORT_FILE) appendFileSync(process.env.SOAK_REPORT_FILE, `${surface}:\n${table}\n`);
    expect(report.discrepancies.map(describeDiscrepancy), `service and state disagreed (SOAK_SEED=${SEED} replays the run)`).toEqual([]);
    if (FAULT_RATE > 0 && CYCLES >= 1) {
      // The first faulty cycle's first attempts are cut early by each kind of interruption in turn.
      expect(report.interrupted.outage, "operations cut by an outage").toBeGreaterThan(0);
      expect(report.interrupted.cancel, "operations cancelled").toBeGreaterThan(0);
    }
  });
});

/** The comparison itself, on records made up to show each kind of disagreement once. */
describe("the soak's comparison of service and state", () => {
  /** Per kind, an empty list or set, from the provider's one list of kinds. */
  const perKind = <T>(empty: () => T): Record<Kind, T> => Object.fromEntries(KINDS.map((kind) => [kind, empty()])) as Record<Kind, T>;
  const baseline: Baseline = {
    ...perKind(() => new Set<string>()),
    PublicKey: new Set(["1"]),
    Cluster: new Set(["201"]),
    Connection: new Set(["301"]),
    Member: new Set(["70"]),
    Package: new Set(["101"]),
    Account: new Set(["7"]),
  };
  /** The state dump of one account: the account the stack's key reaches, and no other. */
  const dump = (records: Record<string, unknown>) => ({ accounts: [{ id: 7, uid: "acme", ...records }] });
  const resource = (name: string, id: string): StateResource => ({ urn: `urn:pulumi:test::soak::x::${name}`, name, id, pendingDelete: false });
  const emptyState = (): Record<Kind, StateResource[]> => perKind((): StateResource[] => []);
  const job = (id: number, run: string, cycle: number, status: string) => ({ id, status, variables: { soak_run: run, soak_cycle: String(cycle) } });
  const account = {
    id: 7,
    uid: "acme",
    publicKeys: [
      { id: 1, name: "fixture" },
      { id: 2, name: "soak-key-0" },
      { id: 3, name: "soak-key-1" },
    ],
    connectionGroups: [
      { id: 5, name: "soak-group-0" },
      { id: 6, name: "soak-group-0" },
    ],
    clusters: [
      { id: 201, name: "runner", status: "available" },
      { id: 7, name: "soak-cluster-0", status: "terminated" },
      { id: 8, name: "soak-cluster-1", status: "available" },
    ],
    jobs: [
      job(9, "soak-run-0", 1, "completed"),
      job(10, "soak-run-0", 2, "running"),
      job(11, "soak-run-1", 2, "completed"),
      job(12, "soak-run-2", 2, "running"),
    ],
    connections: [
      { id: 301, name: "fixture" },
      { id: 13, name: "soak-connection-0" },
      { id: 14, name: "soak-connection-0" },
    ],
    users: [
      { id: 70, email: "owner@example.com" },
      { id: 71, email: "soak-member-0@example.com" },
    ],
    schedules: [{ id: 15, name: "soak-schedule-0" }],
    hooks: [{ id: 16, name: "soak-hook-0" }],
  };
  const service = { accounts: [account, { id: 8, uid: "soak-account-0" }] };
  const state = emptyState();
  state.PublicKey.push(resource("soak-key-0", "2"), resource("soak-key-2", "4"));
  state.ConnectionGroup.push(resource("soak-group-0", "5"));
  state.Cluster.push(resource("soak-cluster-0", "7"));
  state.JobRun.push(resource("soak-run-0", "10"));
  state.Connection.push(resource("soak-connection-0", "13"));
  state.Member.push(resource("soak-member-1", "72"));
  state.Schedule.push(resource("soak-schedule-0", "15"));
  state.UserSettings.push(resource("soak-settings-0", "70"));

  it("is made for a stack that declares every kind the ledger checks", () => {
    expect(KINDS.filter((kind) => KIND_TESTS[kind].soak.count < 1)).toEqual([]);
  });

  it("finds orphans, duplicates and lost resources, and leaves finished jobs of earlier cycles and the singleton the service holds alone", () => {
    const found = findDiscrepancies(service, state, baseline, { cycle: 2, phase: "up", attempt: 1, failed: false });
    expect(found.map((f) => `${f.problem} ${f.kind} ${f.detail}`).sort()).toEqual([
      "duplicate Connection soak-connection-0: 2 objects on the service: 13 (in state), 14",
      "duplicate ConnectionGroup soak-group-0: 2 objects on the service: 5 (in state), 6",
      "lost Cluster soak-cluster-0 (id 7) is in state but is terminated on the service",
      "lost Member soak-member-1 (id 72) is in state but has no object on the service",
      "lost PublicKey soak-key-2 (id 4) is in state but has no object on the service",
      "orphan Account Account 8 (soak-account-0) is on the service but not in state",
      "orphan Cluster Cluster 8 (soak-cluster-1, available) is on the service but not in state",
      "orphan Hook Hook 16 (soak-hook-0) is on the service but not in state",
      "orphan JobRun JobRun 12 (soak-run-2, running) is on the service but not in state",
      "orphan Member Member 71 (soak-member-0@example.com) is on the service but not in state",
      "orphan PublicKey PublicKey 3 (soak-key-1) is on the service but not in state",
    ]);
  });

  it("after a successful destroy, reports whatever of the soak is still there", () => {
    const found = findDiscrepancies(service, emptyState(), baseline, { cycle: 2, phase: "destroy", attempt: 1, failed: false });
    expect(
      found
        .filter((f) => f.problem === "left-after-destroy")
        .map((f) => f.detail)
        .sort(),
    ).toEqual([
      "account 8 (soak-account-0) still exists",
      "cluster 8 (soak-cluster-1) is available",
      "connection 13 (soak-connection-0) still exists",
      "connection 14 (soak-connection-0) still exists",
      "group 5 (soak-group-0) still exists",
      "group 6 (soak-group-0) still exists",
      "hook 16 (soak-hook-0) still exists",
      "job 10 (soak-run-0, cycle 2) is running",
      "job 12 (soak-run-2, cycle 2) is running",
      "key 2 (soak-key-0) still exists",
      "key 3 (soak-key-1) still exists",
      "schedule 15 (soak-schedule-0) still exists",
      "soak-member-0@example.com (user 71) is still a member",
    ]);
  });

  it("after a failed destroy, a resource whose object is already gone is not counted as lost", () => {
    const found = findDiscrepancies(service, state, baseline, { cycle: 2, phase: "destroy", attempt: 1, failed: true });
    expect(found.filter((f) => f.problem === "lost")).toEqual([]);
  });

  it("counts a delivery's pipeline package, cluster and jobs as the service's, also once the delivery is deleted", () => {
    const own: Baseline = { ...perKind(() => new Set<string>()), Account: new Set(["7"]) };
    const pipeline = { id: 18, name: "delivery-17-pipeline", status: "active" };
    const deliveryCluster = { id: 19, name: "delivery-17", status: "available" };
    const deliveryJob = { id: 20, status: "running", delivery: { deliveryId: 17 } };
    const running = dump({
      deliveries: [{ id: 17, name: "soak-delivery-0", packageId: 18, clusterId: 19 }],
      packages: [pipeline],
      clusters: [deliveryCluster],
      jobs: [deliveryJob],
    });
    const withDelivery = emptyState();
    withDelivery.Delivery.push(resource("soak-delivery-0", "17"));
    const up = { cycle: 1, phase: "up" as const, attempt: 1, failed: false };
    expect(
      findDiscrepancies(running, withDelivery, own, up)
        .map((f) => `${f.problem} ${f.kind} ${f.detail}`)
        .sort(),
    ).toEqual([
      "orphan Cluster Cluster 19 (delivery-17, available) is on the service but not in state",
      "orphan Package Package 18 (delivery-17-pipeline, active) is on the service but not in state",
    ]);
    addServiceMade(own, running);
    expect(findDiscrepancies(running, withDelivery, own, up)).toEqual([]);
    const deleted = dump({ deliveries: [], packages: [{ ...pipeline, status: "archived" }], clusters: [deliveryCluster], jobs: [deliveryJob] });
    addServiceMade(own, deleted);
    expect(findDiscrepancies(deleted, emptyState(), own, { cycle: 1, phase: "destroy", attempt: 1, failed: false })).toEqual([]);
  });
});
