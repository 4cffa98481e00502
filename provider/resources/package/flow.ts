/**
 * A package's `dataFlow` as a program gives it: the flow itself (`contract/data-flow.ts`), the
 * export document of a package (its `data_flow_json`), or either as JSON text read from a file.
 * It is kept in one canonical form, so key order, whitespace and fields the service adds never
 * show as a change; connection ids may be given as strings (a `Connection`'s `id`).
 */
import { z } from "zod";
import { dataFlowErrors, dataFlowSchema, type DataFlow, type FlowComponent, type FlowError } from "../../../contract/data-flow";
import { RECORD_ID_TEXT } from "../../../contract/limits";
import { containsUnknown } from "../shared/diff";
import { isPlainObject } from "../shared/references";

const JSON_RULE = "must be a flow `{ components, edges }`, a package's export document, or JSON text of either";

/** JSON text read; text that is not JSON is undefined, which no rule takes. */
function parsedText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** The flow inside an export document, or the value itself. */
function flowPart(value: unknown): unknown {
  const given = parsedText(value);
  return isPlainObject(given) && "data_flow_json" in given ? parsedText(given.data_flow_json) : given;
}

/** `"301"` → 301 in each component's connection, as the service takes ids. */
function withNumericIds(value: unknown): unknown {
  if (!isPlainObject(value) || !Array.isArray(value.components)) return value;
  const components = value.components.map((component: unknown) => {
    if (!isPlainObject(component) || !isPlainObject(component.connection)) return component;
    const id = component.connection.id;
    return typeof id === "string" && RECORD_ID_TEXT.test(id) ? { ...component, connection: { ...component.connection, id: Number(id) } } : component;
  });
  return { ...value, components };
}

function canonicalComponent(component: FlowComponent): FlowComponent {
  const { name, type, connection, table, path, fields, condition, measures } = component;
  const kept: FlowComponent = { name, type };
  if (connection !== undefined) kept.connection = connection.type === undefined ? { id: connection.id } : { id: connection.id, type: connection.type };
  if (table !== undefined) kept.table = table;
  if (path !== undefined) kept.path = path;
  if (fields !== undefined) kept.fields = fields;
  if (condition !== undefined) kept.condition = condition;
  if (measures !== undefined) kept.measures = measures;
  return kept;
}

/** Edges are a set: sorted, so their order never shows as a change. */
function canonicalEdges(edges: readonly { from: string; to: string }[]): { from: string; to: string }[] {
  return edges.map(({ from, to }) => ({ from, to })).sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

/** The flow's own fields only, in one order; what the service adds is dropped. */
export function canonicalFlow(flow: DataFlow): DataFlow {
  return { components: flow.components.map(canonicalComponent), edges: canonicalEdges(flow.edges) };
}

/** The service's flow as read back (an export's `data_flow_json`), lenient about what it adds. */
export function flowOfService(value: unknown): DataFlow | undefined {
  const given = withNumericIds(flowPart(value));
  if (!isPlainObject(given) || !Array.isArray(given.components)) return undefined;
  const components = given.components.filter(isPlainObject).map((c) => canonicalComponent(c as unknown as FlowComponent));
  const edges = (Array.isArray(given.edges) ? given.edges : []).filter(isPlainObject).map((e) => ({ from: String(e.from), to: String(e.to) }));
  return { components, edges: canonicalEdges(edges) };
}

/**
 * The input's rule: strict, so a misspelt field is named. A flow still holding unknown values
 * in a preview (a connection made in the same `up`) passes as it is and is checked by the update.
 */
export const dataFlowInput = z.unknown().transform((value, ctx): DataFlow => {
  if (containsUnknown(value)) return value as DataFlow;
  const given = withNumericIds(flowPart(value));
  if (!isPlainObject(given)) {
    ctx.addIssue({ code: "custom", message: JSON_RULE });
    return z.NEVER;
  }
  const parsed = dataFlowSchema.safeParse(given);
  if (parsed.success) return canonicalFlow(parsed.data);
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as z.core.$ZodRawIssue);
  return z.NEVER;
});

/** Rules a validation checks by the account (the connections' presence and kinds) wait for the service. */
const ACCOUNT_RULES: readonly string[] = ["connection-exists", "connection-role"];

/** A flow of no components: a package made without one, which the provider does not validate. */
export const EMPTY_FLOW: DataFlow = { components: [], edges: [] };

export function hasNoComponents(flow: DataFlow | undefined): boolean {
  return flow !== undefined && flow.components.length === 0;
}

/**
 * What is wrong with the flow whatever the account: its shape, wiring, variables and the
 * connection types it gives. A flow of no components is a package still to be designed: nothing.
 */
export function flowErrorsBeforeValidation(flow: DataFlow, variables: Readonly<Record<string, unknown>>): FlowError[] {
  if (hasNoComponents(flow)) return [];
  return dataFlowErrors(flow, variables, () => undefined).filter((error) => !ACCOUNT_RULES.includes(error.rule));
}
