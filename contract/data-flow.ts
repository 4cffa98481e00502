/**
 * A package's data flow (`data_flow_json`), and the rules a validation checks it by. The facts
 * leave the document's shape undocumented; this is the one both sides read (the emulator
 * validates and runs it, the provider checks it at preview):
 *
 *   { "components": [ { "name": "orders", "type": "source", "connection": { "id": 301 }, "table": "orders" },
 *                     { "name": "recent", "type": "filter", "condition": "created_at > '${since}'" },
 *                     { "name": "warehouse", "type": "destination", "connection": { "id": 303 }, "table": "recent_orders" } ],
 *     "edges": [ { "from": "orders", "to": "recent" }, { "from": "recent", "to": "warehouse" } ] }
 *
 * A source reads a connection's table (databases) or path (cloud storage, services); select,
 * filter, aggregate and join transform what reaches them (a join takes two inputs); a
 * destination writes to a database's table or a cloud storage's path. `${name}` in a
 * component's text uses a package variable.
 */
import { z } from "zod";
import { CONNECTION_TYPE_RULES, isConnectionType, type ConnectionKind } from "./connection-types";

export const COMPONENT_TYPES = ["source", "select", "filter", "aggregate", "join", "destination"] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

export interface FlowComponent {
  name: string;
  type: ComponentType;
  /** Sources and destinations: the connection read or written, by its id in the account, and optionally its type. */
  connection?: { id: number; type?: string };
  table?: string;
  path?: string;
  /** select: the fields kept; aggregate: the fields grouped by. */
  fields?: string[];
  /** filter: the condition; join: how the two inputs match. */
  condition?: string;
  /** aggregate: the measures, `{ name: "sum(amount)" }`. */
  measures?: Record<string, string>;
}

export interface FlowEdge {
  from: string;
  to: string;
}

export interface DataFlow {
  components: FlowComponent[];
  edges: FlowEdge[];
}

const name = z.string().trim().min(1, "must not be empty");

/**
 * The document's shape, as both sides read it: unknown fields are refused, so a misspelt `conection`
 * is named rather than ignored. The rules between components are `dataFlowErrors`'s.
 */
export const dataFlowSchema: z.ZodType<DataFlow> = z.strictObject({
  components: z.array(
    z.strictObject({
      name,
      type: z.enum(COMPONENT_TYPES),
      connection: z.strictObject({ id: z.number().int().positive(), type: z.string().optional() }).optional(),
      table: name.optional(),
      path: name.optional(),
      fields: z.array(name).optional(),
      condition: name.optional(),
      measures: z.record(z.string(), z.string()).optional(),
    }),
  ),
  edges: z.array(z.strictObject({ from: name, to: name })).default([]),
}) as z.ZodType<DataFlow>;

/** One broken rule, naming the component (when one is at fault) and the rule. */
export interface FlowError {
  component?: string;
  rule: string;
  message: string;
}

/** What a validation needs to know of the account: the kind of each connection it has. */
export type ConnectionKindOf = (id: number) => ConnectionKind | undefined;

/** Which kinds of connection may play each role. */
const READABLE: readonly ConnectionKind[] = ["database", "cloud_storage", "web_analytics", "ads_platform", "crm_platform"];
const WRITABLE: readonly ConnectionKind[] = ["database", "cloud_storage"];

/** How many inputs each type takes, and whether it must feed another component. */
const SHAPE: Record<ComponentType, { inputs: number; feeds: boolean }> = {
  source: { inputs: 0, feeds: true },
  select: { inputs: 1, feeds: true },
  filter: { inputs: 1, feeds: true },
  aggregate: { inputs: 1, feeds: true },
  join: { inputs: 2, feeds: true },
  destination: { inputs: 1, feeds: false },
};

const VARIABLE_USE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function error(rule: string, message: string, component?: string): FlowError {
  return component === undefined ? { rule, message } : { component, rule, message };
}

function structureErrors(flow: DataFlow): FlowError[] {
  // A package made without a flow (as the web application makes them) breaks one rule, not every rule a flow has.
  if (flow.components.length === 0) return [error("has-components", "the flow has no components")];
  const errors: FlowError[] = [];
  const names = new Set<string>();
  for (const component of flow.components) {
    if (names.has(component.name)) errors.push(error("unique-names", `component "${component.name}" is declared twice`, component.name));
    names.add(component.name);
  }
  if (!flow.components.some((c) => c.type === "source")) errors.push(error("has-source", "the flow has no source"));
  if (!flow.components.some((c) => c.type === "destination")) errors.push(error("has-destination", "the flow has no destination"));
  for (const edge of flow.edges) {
    for (const end of [edge.from, edge.to]) {
      if (!names.has(end)) errors.push(error("edges-connect-components", `an edge ${edge.from} → ${edge.to} names "${end}", which is no component`, end));
    }
  }
  return errors;
}

function wiringErrors(flow: DataFlow): FlowError[] {
  const errors: FlowError[] = [];
  for (const component of flow.components) {
    const inputs = flow.edges.filter((edge) => edge.to === component.name).length;
    const outputs = flow.edges.filter((edge) => edge.from === component.name).length;
    const shape = SHAPE[component.type];
    if (inputs !== shape.inputs) {
      errors.push(
        error("inputs", `${component.type} "${component.name}" takes ${shape.inputs} input${shape.inputs === 1 ? "" : "s"}, and has ${inputs}`, component.name),
      );
    }
    if (shape.feeds && outputs === 0) errors.push(error("connected", `${component.type} "${component.name}" feeds no other component`, component.name));
    if (!shape.feeds && outputs > 0) errors.push(error("connected", `destination "${component.name}" cannot feed other components`, component.name));
  }
  return errors;
}

/** The role a source or destination plays, in words, and the kinds of connection that can play it. */
function roleOf(component: FlowComponent): { verb: string; allowed: readonly ConnectionKind[]; refusal: string } {
  return component.type === "source"
    ? { verb: "reads", allowed: READABLE, refusal: "which cannot be read" }
    : { verb: "writes to", allowed: WRITABLE, refusal: "which cannot be written to" };
}

const kindWords = (kind: ConnectionKind) => kind.replace("_", " ");

/**
 * A component's own word on its connection's type, when it gives one: a type the service knows,
 * able to play the component's role. Whether it is the connection's actual type needs the account.
 */
function declaredTypeErrors(flow: DataFlow): FlowError[] {
  const errors: FlowError[] = [];
  for (const component of flow.components) {
    const type = component.connection?.type;
    if (type === undefined || (component.type !== "source" && component.type !== "destination")) continue;
    const what = `${component.type} "${component.name}" gives connection.type "${type}"`;
    if (!isConnectionType(type)) {
      errors.push(error("connection-type", `${what}, which is no connection type`, component.name));
      continue;
    }
    const kind = CONNECTION_TYPE_RULES[type].kind;
    const role = roleOf(component);
    if (!role.allowed.includes(kind)) errors.push(error("connection-type", `${what}, a ${kindWords(kind)} connection, ${role.refusal}`, component.name));
  }
  return errors;
}

/** A cycle, as the names along it, or undefined. */
function findCycle(flow: DataFlow): string[] | undefined {
  const next = new Map<string, string[]>();
  for (const edge of flow.edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const state = new Map<string, "visiting" | "done">();
  const path: string[] = [];
  const visit = (name: string): string[] | undefined => {
    if (state.get(name) === "done") return undefined;
    if (state.get(name) === "visiting") return [...path.slice(path.indexOf(name)), name];
    state.set(name, "visiting");
    path.push(name);
    for (const to of next.get(name) ?? []) {
      const cycle = visit(to);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(name, "done");
    return undefined;
  };
  for (const component of flow.components) {
    const cycle = visit(component.name);
    if (cycle) return cycle;
  }
  return undefined;
}

function connectionErrors(flow: DataFlow, kindOf: ConnectionKindOf): FlowError[] {
  const errors: FlowError[] = [];
  for (const component of flow.components) {
    if (component.type !== "source" && component.type !== "destination") continue;
    const id = component.connection?.id;
    if (id === undefined) {
      errors.push(error("connection", `${component.type} "${component.name}" names no connection`, component.name));
      continue;
    }
    const kind = kindOf(id);
    if (kind === undefined) {
      errors.push(error("connection-exists", `${component.type} "${component.name}" uses connection ${id}, which is not in the account`, component.name));
      continue;
    }
    const role = roleOf(component);
    if (!role.allowed.includes(kind)) {
      errors.push(
        error(
          "connection-role",
          `${component.type} "${component.name}" ${role.verb} connection ${id}, a ${kindWords(kind)} connection, ${role.refusal}`,
          component.name,
        ),
      );
    }
  }
  return errors;
}

function variableErrors(flow: DataFlow, variables: Readonly<Record<string, unknown>>): FlowError[] {
  return flow.components.flatMap((component) => {
    const text = JSON.stringify(component);
    const used = [...new Set([...text.matchAll(VARIABLE_USE)].map((match) => match[1]!))];
    return used
      .filter((name) => !(name in variables))
      .map((name) => error("variables-defined", `"${component.name}" uses the variable ${name}, which the package does not define`, component.name));
  });
}

/**
 * Every rule the flow breaks: some components, names unique, a source and a destination at least,
 * edges between components, each component's inputs and outputs, no cycle, a connection's type
 * as given known and able to play its role, connections present in the account and able to play
 * their role, variables used defined. Empty: the flow is valid.
 */
export function dataFlowErrors(flow: DataFlow, variables: Readonly<Record<string, unknown>>, kindOf: ConnectionKindOf): FlowError[] {
  const structure = structureErrors(flow);
  const cycle = findCycle(flow);
  return [
    ...structure,
    ...wiringErrors(flow),
    ...(cycle ? [error("no-cycles", `the flow loops: ${cycle.join(" → ")}`, cycle[0])] : []),
    ...declaredTypeErrors(flow),
    ...connectionErrors(flow, kindOf),
    ...variableErrors(flow, variables),
  ];
}

/** The destinations, in the flow's order: a job of the package makes one output for each. */
export function destinationsOf(flow: DataFlow): FlowComponent[] {
  return flow.components.filter((component) => component.type === "destination");
}
