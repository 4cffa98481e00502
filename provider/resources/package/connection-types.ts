/**
 * A flow component may say its connection's type (`connection: { id, type }`). Whether the type
 * is one the service knows, able to play the component's role, is checked at preview with the
 * flow's other rules; whether it is the connection's actual type needs the account, so it is
 * checked when the flow is sent, before the create or update: the service would otherwise take
 * a flow that says one thing of a connection and does another. The connections are the ones the
 * operation's check of missing ids reads (shared/referenced-objects.ts): each is read once.
 */
import type { DataFlow, FlowComponent } from "../../../contract/data-flow";
import type { ConnectionRecord } from "../../api/connections";
import { UserFacingError } from "../../errors";
import type { ReferenceReads } from "../shared/referenced-objects";

type Typed = FlowComponent & { connection: { id: number; type: string } };

const givesType = (component: FlowComponent): component is Typed => component.connection?.type !== undefined;

/** The actual type of each connection; one the account no longer has was there before, and is left to the validation. */
async function actualTypes(referenced: ReferenceReads, ids: readonly number[]): Promise<Map<number, string | undefined>> {
  const types = await Promise.all(ids.map(async (id) => [id, ((await referenced.find("connection", id)) as ConnectionRecord | undefined)?.type] as const));
  return new Map(types);
}

/** Refuses, naming each component and the input, a `connection.type` its connection does not have. */
export async function refuseMistypedConnections(referenced: ReferenceReads, flow: DataFlow | undefined): Promise<void> {
  const typed = (flow?.components ?? []).filter(givesType);
  if (typed.length === 0) return;
  const actual = await actualTypes(referenced, [...new Set(typed.map((component) => component.connection.id))]);
  const problems = typed.flatMap(({ name, connection }) => {
    const type = actual.get(connection.id);
    return type === undefined || type === connection.type
      ? []
      : [`component "${name}" gives connection.type "${connection.type}", but connection ${connection.id} is a ${type} connection`];
  });
  if (problems.length > 0)
    throw new UserFacingError(`dataFlow is invalid: ${problems.join("; ")}; give the connection's own type, or leave connection.type out`);
}
