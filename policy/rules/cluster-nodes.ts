import type { ResourceValidationPolicy } from "@pulumi/policy";
import { fromPipeline, isKind, isRecord, named } from "../resources";

/** The service's default size of a schedule's cluster. */
const DEFAULT_NODES = 2;
const DEFAULT_MAX_NODES = 10;

/** Where each kind gives the size of the cluster it runs on. */
function nodesOf(type: string, props: Record<string, unknown>): { kind: "Cluster" | "Schedule"; input: string; nodes: unknown } | undefined {
  if (isKind(type, "Cluster")) return { kind: "Cluster", input: "nodes", nodes: props.nodes };
  if (isKind(type, "Schedule")) return { kind: "Schedule", input: "task.nodes", nodes: isRecord(props.task) ? (props.task.nodes ?? DEFAULT_NODES) : undefined };
  return undefined;
}

/**
 * Nodes are paid by the hour: a cluster larger than the team's budget is a decision, not a
 * default. A Pipeline's cluster is checked on the Schedule the Pipeline makes of it, once,
 * whether or not the component's own inputs reach the pack.
 */
export const clusterNodes: ResourceValidationPolicy = {
  name: "etl-cluster-max-nodes",
  description: "A cluster has at most the configured number of nodes (maxNodes).",
  enforcementLevel: "mandatory",
  configSchema: { properties: { maxNodes: { type: "integer", minimum: 1, default: DEFAULT_MAX_NODES } } },
  validateResource: (args, report) => {
    const found = nodesOf(args.type, args.props);
    if (found === undefined || typeof found.nodes !== "number") return;
    const { maxNodes } = args.getConfig<{ maxNodes: number }>();
    if (found.nodes > maxNodes) {
      const origin = fromPipeline(args, "schedule", "cluster.nodes");
      report(`${named(found.kind, args.name)}: ${found.input} is ${found.nodes}, more than the ${maxNodes} allowed (maxNodes).${origin}`);
    }
  },
};
