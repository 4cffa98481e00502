import type { DataFlow, FlowComponent } from "../../../contract/data-flow";
import { SCHEDULE_TIME_TO_IDLE_SECONDS } from "../../../contract/limits";
import { isoTime } from "../../clock";
import type { Store } from "../../store";
import { accountById } from "../accounts/interface";
import { clusterFacts, isEnding, requestCluster, type ClusterFacts } from "../clusters/interface";
import { connectionFacts, type ConnectionFacts } from "../connections/interface";
import { submitJob } from "../jobs/interface";
import { archivePackage, insertFlowPackage, packageSummary } from "../packages/interface";
import { firstRunFrom } from "../schedules/interface";
import { DELIVERIES, disableDelivery, type DeliveryEndpoint, type DeliveryRow } from "./model";

/**
 * What a delivery does once set up: it makes its pipeline, a package whose flow reads the source
 * and writes the destination, then runs that package as a job every interval, on a cluster of
 * its own that it makes when it has none alive (the cluster terminates itself when idle). Run
 * times count from the moment it was enabled, the first run at that moment, as a schedule's
 * count from `start_at`.
 */

/** Its cluster's size and idle time: the smallest that runs one job, gone soon after its last run. */
const DELIVERY_CLUSTER = { nodes: 1, timeToIdle: SCHEDULE_TIME_TO_IDLE_SECONDS.default } as const;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** A database end reads or writes a table, any other a path (contract/data-flow.ts). */
function placeOf(facts: ConnectionFacts, table: string, path: string): Pick<FlowComponent, "table" | "path"> {
  return facts.kind === "database" ? { table } : { path };
}

/** The source's `table` or `path` when given; its connection's name otherwise. */
function sourceComponent(endpoint: DeliveryEndpoint, facts: ConnectionFacts): FlowComponent {
  const { table, path } = endpoint.properties;
  return { name: "source", type: "source", connection: { id: facts.id }, ...placeOf(facts, text(table) ?? facts.name, text(path) ?? facts.name) };
}

/** The destination's `table` or `path` when given, else named after the source; in its `schema` when one is set. */
function destinationComponent(endpoint: DeliveryEndpoint, facts: ConnectionFacts, source: ConnectionFacts): FlowComponent {
  const { schema, table, path } = endpoint.properties;
  const prefix = text(schema);
  const target = text(table) ?? source.name;
  const folder = text(path) ?? `${prefix ?? "deliveries"}/${source.name}`;
  return {
    name: "destination",
    type: "destination",
    connection: { id: facts.id },
    ...placeOf(facts, prefix === undefined ? target : `${prefix}.${target}`, folder),
  };
}

export function pipelineFlow(delivery: DeliveryRow, source: ConnectionFacts, destination: ConnectionFacts): DataFlow {
  return {
    components: [sourceComponent(delivery.source, source), destinationComponent(delivery.destination, destination, source)],
    edges: [{ from: "source", to: "destination" }],
  };
}

function nextRunAfter(store: Store, delivery: DeliveryRow, at: number): string | null {
  const next = firstRunFrom({ startAt: delivery.statusSince, intervalAmount: delivery.intervalAmount, intervalUnit: delivery.intervalUnit }, store.clock, at);
  return next === undefined ? null : isoTime(next);
}

/** The set-up is done: the pipeline is made and the first run is due at once. */
export function enableDelivery(store: Store, delivery: DeliveryRow, at: number): void {
  const source = connectionFacts(store, delivery.accountId, delivery.source.connectionId);
  const destination = connectionFacts(store, delivery.accountId, delivery.destination.connectionId);
  if (source === undefined || destination === undefined) {
    disableDelivery(store, delivery, "a connection it uses no longer exists", at);
    return;
  }
  const pipeline = insertFlowPackage(store, {
    accountId: delivery.accountId,
    ownerId: delivery.ownerId,
    name: `delivery-${delivery.id}-pipeline`,
    description: `Made by delivery '${delivery.name}'`,
    flow: pipelineFlow(delivery, source, destination),
  });
  const time = isoTime(at);
  store.update(DELIVERIES, delivery, { status: "enabled", statusMessage: null, statusSince: time, packageId: pipeline.id, nextRunAt: time, updatedAt: time });
}

function ownCluster(store: Store, delivery: DeliveryRow): ClusterFacts | undefined {
  const cluster = delivery.clusterId === null ? undefined : clusterFacts(store, delivery.accountId, delivery.clusterId);
  return cluster === undefined || isEnding(cluster) || cluster.status === "error" ? undefined : cluster;
}

function createCluster(store: Store, delivery: DeliveryRow, at: number): ClusterFacts {
  const cluster = requestCluster(
    store,
    {
      accountId: delivery.accountId,
      ownerId: delivery.ownerId,
      name: `delivery-${delivery.id}`,
      description: `Created by delivery '${delivery.name}'`,
      nodes: DELIVERY_CLUSTER.nodes,
      terminateOnIdle: true,
      timeToIdle: DELIVERY_CLUSTER.timeToIdle,
    },
    at,
  );
  store.update(DELIVERIES, delivery, { clusterId: cluster.id });
  return cluster;
}

/** Why the pipeline cannot run now (someone archived its package), or undefined. */
function pipelineRefusal(store: Store, delivery: DeliveryRow): string | undefined {
  const pipeline = delivery.packageId === null ? undefined : packageSummary(store, delivery.accountId, delivery.packageId);
  if (pipeline === undefined) return "its pipeline package no longer exists";
  return pipeline.status === "active" ? undefined : `its pipeline package ${pipeline.id} is ${pipeline.status}`;
}

/**
 * One run at `at`: a job of its pipeline started by the delivery. An account without billing
 * information runs no job, as the API would refuse it; the run time still passes.
 */
export function runDelivery(store: Store, delivery: DeliveryRow, at: number): void {
  const refusal = pipelineRefusal(store, delivery);
  if (refusal !== undefined) {
    disableDelivery(store, delivery, refusal, at);
    return;
  }
  if (accountById(store, delivery.accountId)?.billing === true) {
    const { accountId, ownerId } = delivery;
    const packageId = delivery.packageId!;
    const cluster = ownCluster(store, delivery) ?? createCluster(store, delivery, at);
    submitJob(store, { accountId, ownerId, clusterId: cluster.id, packageId, variables: {}, delivery: { deliveryId: delivery.id } }, at);
  }
  // The next run time is strictly later, so a run always moves the delivery on.
  store.update(DELIVERIES, delivery, { runCount: delivery.runCount + 1, lastRunAt: isoTime(at), nextRunAt: nextRunAfter(store, delivery, at + 1) });
}

/** A deleted delivery's pipeline is archived, as the service's delete of a package does; its jobs carry on. */
export function retirePipeline(store: Store, delivery: DeliveryRow, at: number): void {
  if (delivery.packageId !== null) archivePackage(store, delivery.accountId, delivery.packageId, isoTime(at));
}
