/**
 * A package made from a template (`templateId`). The service's templates list no flow, and the
 * flow of a package made from one names no connection (facts, "Packages": `package_template_id`
 * on create only). So the provider makes the package from the template, reads the flow it got,
 * and sets `sourceConnectionId` on every source and `destinationConnectionId` on every
 * destination. From then on the flow is the package's own: only those connections are compared
 * with the program, so an edit made in the web application stays.
 */
import type { DataFlow, FlowComponent } from "../../../contract/data-flow";

type Values = Record<string, unknown>;
type Role = "source" | "destination";

const CONNECTION_INPUT: Record<Role, string> = { source: "sourceConnectionId", destination: "destinationConnectionId" };

export function fromTemplate(values: Values): boolean {
  return values.templateId !== undefined;
}

/**
 * The connection the role's components use, as a diff compares it with the input: the one id
 * they share, or every id when they differ (which no input equals, so the update sets them all).
 */
export function templateConnectionOf(outputs: Values, role: Role): unknown {
  if (!fromTemplate(outputs)) return outputs[CONNECTION_INPUT[role]];
  const flow = outputs.dataFlow as DataFlow | undefined;
  const ids = [...new Set((flow?.components ?? []).filter((c) => c.type === role).map((c) => c.connection?.id))];
  return ids.length === 1 ? ids[0] : ids.length === 0 ? undefined : ids;
}

/** The flow with the connections the inputs give set on the template's sources and destinations. */
export function withTemplateConnections(flow: DataFlow, inputs: Values): DataFlow {
  const connect = (component: FlowComponent): FlowComponent => {
    if (component.type !== "source" && component.type !== "destination") return component;
    const id = inputs[CONNECTION_INPUT[component.type]];
    return id === undefined ? component : { ...component, connection: { id: Number(id) } };
  };
  return { ...flow, components: flow.components.map(connect) };
}

/** What the inputs break of the template's rules, each with the input at fault. */
export function templateRuleIssues(inputs: Values): Array<{ path: string[]; message: string }> {
  if (!fromTemplate(inputs)) {
    return Object.values(CONNECTION_INPUT)
      .filter((name) => inputs[name] !== undefined)
      .map((name) => ({
        path: [name],
        message: "is only for a package made from a template (`templateId`): a `dataFlow` names its connections in its components",
      }));
  }
  const issues: Array<{ path: string[]; message: string }> = [];
  if (inputs.dataFlow !== undefined) {
    issues.push({ path: ["dataFlow"], message: "must be left out with `templateId`: a package starts from a template or from a flow, not both" });
  }
  if (inputs.validate !== false) {
    for (const name of Object.values(CONNECTION_INPUT).filter((input) => inputs[input] === undefined)) {
      issues.push({
        path: [name],
        message: "is required with `templateId`: a template's flow names no connection, and the package would fail its validation (or set `validate: false`)",
      });
    }
  }
  return issues;
}
