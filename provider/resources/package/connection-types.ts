/**
 * A flow component may say its connection's type (`connection: { id, type }`). Whether the type
 * is one the service knows, able to play the component's role, is checked at preview with the
 * flow's other rules; whether it is the connection's actual type needs the account, so it is
 * checked when the flow is sent, before the create or update: the service would otherwise take
 * a flow that says one thing of a connection and does another.
 */
import type { DataFlow, FlowComponent } from "../../../contract/data-flow";
import { getConnectionById } from "../../api/connections";
import type { RequestFn } from "../../client/http";
import { UserFacingError } from "../../errors";
import { unlessGone } from "../shared/gone";

type Typed = FlowComponent & { connection: { id: number; type: string } };

const givesType = (component: FlowComponent): component is Typed => component.connection?.type !== undefined;

/** The actual type of each connection, read once; a connection not in the account is left to the validation. */
async function actualTypes(request: RequestFn, ids: readonly number[]): Promise<Map<number, string | undefined>> {
  const types = await Promise.all(ids.map(async (id) => [id, (await unlessGone(getConnectionById(request, id)))?.type] as const));
  return new Map(types);
}

/** Refuses, naming each component and the input, a `connection.type` its connection does not have. */
export async function refuseMistypedConnections(request: RequestFn, flow: DataFlow | undefined): Promise<void> {
  const typed = (flow?.components ?? []).filter(givesType);
  if (typed.length === 0) return;
  const actual = await actualTypes(request, [...new Set(typed.map((component) => component.connection.id))]);
  const problems = typed.flatMap(({ name, connection }) => {
    const type = actual.get(connection.id);
    return type === undefined || type === connection.type
      ? []
      : [`component "${name}" gives connection.type "${connection.type}", but connection ${connection.id} is a ${type} connection`];
  });
  if (problems.length > 0)
    throw new UserFacingError(`dataFlow is invalid: ${problems.join("; ")}; give the connection's own type, or leave connection.type out`);
}
