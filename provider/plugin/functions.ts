/** Invoke: the functions of the one list, by token `etl:index:<name>`; a list comes back as `{ items }`. */
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import { FUNCTIONS, type FunctionName } from "../functions/list";
import type { ProgramFunction } from "../functions/context";
import { ProviderError } from "./errors";
import type { PluginSession } from "./session";
import { fromStruct, toStruct, type Values } from "./values";

const PREFIX = "etl:index:";

function functionOf(token: string) {
  const name = token.startsWith(PREFIX) ? token.slice(PREFIX.length) : "";
  if (!Object.hasOwn(FUNCTIONS, name)) throw new ProviderError(`the etl provider has no function "${token}"; is the installed plugin older than the program?`);
  return FUNCTIONS[name as FunctionName];
}

export async function invoke(session: PluginSession, req: providerProto.InvokeRequest): Promise<providerProto.InvokeResponse> {
  const declaration = functionOf(req.getTok());
  const args = fromStruct(req.getArgs()).values;
  // A function's read under settings that cannot work fails as a resource's would, with the settings named.
  const context = await session.proven();
  const result = await (declaration.run as ProgramFunction<[Values], unknown>).withContext(context, args);
  const response = new providerProto.InvokeResponse();
  const returned = "returnsList" in declaration && declaration.returnsList ? { items: result } : (result as Values);
  response.setReturn(toStruct(returned));
  return response;
}
