/**
 * The resource calls of the plugin (Check, Diff, Create, Read, Update, Delete), each one
 * dispatched by the resource's type token to the same implementation the dynamic resources use.
 * What is plugin-only lives here: secrets wrapped on the way out, the detailed diff, and the
 * inputs a `Read` with only an id (an import) reconstructs.
 */
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import { RESOURCES, SINGLETON_KINDS, type ResourceKind } from "../resources/registry";
import { isUnknown, UNREAD_INPUTS } from "../resources/shared/check";
import { sameValue, type DetailedDiffResult } from "../resources/shared/diff";
import { UNKNOWN_VALUE } from "../engine-values";
import type { ResourceDeclaration } from "../resources/shared/declaration";
import type { ResourceImplementation } from "../resources/shared/implementation";
import { secondHolder, type ClaimedObject } from "../resources/shared/singleton";
import { saidToStay } from "../runtime";
import { ProviderError } from "./errors";
import { sayingWhenReplacementCameFirst } from "./replacement-order";
import { keepReference, noteChecked, resolveReferences } from "./references";
import type { PluginSession } from "./session";
import { checkFailures, detailedDiff } from "./responses";
import { fromStruct, toStruct, type Values } from "./values";

const TYPE_PREFIX = "etl:index:";

/** The kind of a type token `etl:index:<Kind>`, or of a URN ending in one. */
export function kindOf(typeOrUrn: string): ResourceKind {
  // urn:pulumi:<stack>::<project>::<parent type>$<type>::<name>
  const parts = typeOrUrn.split("::");
  const type = parts.length >= 4 ? parts[parts.length - 2]!.split("$").pop()! : typeOrUrn;
  const kind = type.startsWith(TYPE_PREFIX) ? type.slice(TYPE_PREFIX.length) : "";
  if (!Object.hasOwn(RESOURCES, kind))
    throw new ProviderError(`the etl provider has no resource type "${type}"; is the installed plugin older than the program?`);
  return kind as ResourceKind;
}

function implementationOf(kind: ResourceKind): ResourceImplementation<unknown, unknown> {
  return RESOURCES[kind].implementation as ResourceImplementation<unknown, unknown>;
}

/** Names whose values go back secret: the kind's declared secrets, and whatever arrived secret. */
function secretNames(kind: ResourceKind, ...arrived: Array<Set<string>>): Set<string> {
  return new Set([...RESOURCES[kind].secrets, ...arrived.flatMap((set) => [...set])]);
}

/** Why a resource is refused: another holds its object under this provider (singleton.ts); undefined for the one that does. */
function secondOf(session: PluginSession, held: ClaimedObject, urn: string): string | undefined {
  const holder = session.singletons.claim(held, urn);
  if (holder === undefined) return undefined;
  // urn:pulumi:<stack>::<project>::<type>::<name>
  const named = (resource: string) => `"${resource.split("::").slice(3).join("::")}" (${resource})`;
  return secondHolder(held, named(holder), named(urn), "provider");
}

/** A resource of a singleton kind, refused when another holds the kind. */
function secondOfSingleton(session: PluginSession, kind: ResourceKind, urn: string): string | undefined {
  return SINGLETON_KINDS.includes(kind) ? secondOf(session, { kind }, urn) : undefined;
}

/** A resource of a `oncePer` kind, refused when another holds the object its checked inputs name; a value not known yet names none. */
function secondOfOncePer(session: PluginSession, kind: ResourceKind, urn: string, inputs: Values): string | undefined {
  const input = (RESOURCES[kind] as ResourceDeclaration).oncePer;
  const value = input === undefined ? undefined : inputs[input];
  if (input === undefined || (typeof value !== "number" && typeof value !== "string") || isUnknown(value)) return undefined;
  return secondOf(session, { kind, input, value: String(value) }, urn);
}

export async function check(session: PluginSession, req: providerProto.CheckRequest): Promise<providerProto.CheckResponse> {
  const kind = kindOf(req.getUrn());
  const response = new providerProto.CheckResponse();
  const second = secondOfSingleton(session, kind, req.getUrn());
  if (second !== undefined) {
    response.setFailuresList(checkFailures([{ property: "", reason: second }]));
    return response;
  }
  const olds = fromStruct(req.getOlds());
  const news = fromStruct(req.getNews(), keepReference);
  const given = await resolveReferences({ types: session.connectionTypes, context: session.context }, kind, news.values);
  // A refused reference leaves its input without a value: the rules would only add "is required".
  if (given.failures.length > 0) {
    response.setFailuresList(checkFailures(given.failures));
    return response;
  }
  const result = await implementationOf(kind).check(olds.values, given.values, session.report);
  if (result.failures && result.failures.length > 0) {
    response.setFailuresList(checkFailures(result.failures));
    return response;
  }
  const sharing = secondOfOncePer(session, kind, req.getUrn(), result.inputs as Values);
  if (sharing !== undefined) {
    response.setFailuresList(checkFailures([{ property: "", reason: sharing }]));
    return response;
  }
  // Valid inputs are planned only under settings that work; invalid ones are refused without a call.
  await session.proven();
  noteChecked(session.connectionTypes, kind, req.getUrn(), result.inputs as Values);
  response.setInputs(toStruct(result.inputs as Values, secretNames(kind, news.secrets)));
  return response;
}

/** Each changed input with what it does; a replace the resource adds to the table's wins. */
export function propertyChanges(result: DetailedDiffResult): Record<string, "update" | "replace"> {
  const replaced = Object.fromEntries((result.replaces ?? []).map((name) => [name, "replace" as const]));
  return { ...result.detailed, ...replaced };
}

/**
 * Recorded with the outputs of an imported object: its secret inputs, which the service never
 * returns. Until the object is next written, a diff takes the program's values of them as the
 * object's own, so the preview after an import is empty; the next update sends them.
 */
const UNRECORDED_SECRETS = "__unrecordedSecrets";

function withProgramSecrets(olds: Values, news: Values): Values {
  const unrecorded = olds[UNRECORDED_SECRETS];
  if (!Array.isArray(unrecorded)) return olds;
  const taken = unrecorded.filter((name: string) => olds[name] === undefined && news[name] !== undefined).map((name: string) => [name, news[name]]);
  return { ...olds, ...Object.fromEntries(taken) };
}

export async function diff(session: PluginSession, req: providerProto.DiffRequest): Promise<providerProto.DiffResponse> {
  const kind = kindOf(req.getUrn());
  const news = fromStruct(req.getNews()).values;
  const olds = withProgramSecrets(fromStruct(req.getOlds()).values, news);
  await session.proven();
  const result = (await implementationOf(kind).diff(req.getId(), olds, news, session.context)) as DetailedDiffResult;
  return detailedDiff(propertyChanges(result), {
    changes: result.changes ?? false,
    replaces: result.replaces,
    deleteBeforeReplace: result.deleteBeforeReplace,
  });
}

export async function create(session: PluginSession, req: providerProto.CreateRequest): Promise<providerProto.CreateResponse> {
  const kind = kindOf(req.getUrn());
  const inputs = fromStruct(req.getProperties());
  const secrets = secretNames(kind, inputs.secrets);
  if (req.getPreview()) return previewed(new providerProto.CreateResponse(), kind, inputs.values, {}, secrets);
  const context = await session.proven();
  const deletesFirst = (RESOURCES[kind] as ResourceDeclaration).deleteBeforeReplace === true;
  const result = await keepingSecrets(secrets, () => sayingWhenReplacementCameFirst(deletesFirst, () => implementationOf(kind).create(context, inputs.values)));
  const response = new providerProto.CreateResponse();
  response.setId(result.id);
  response.setProperties(toStruct(result.outs as Values, secrets));
  return response;
}

/**
 * A refresh, or an import: with no properties (`pulumi import`, the `import` option) the object
 * is read by its id alone, and the inputs that would make it are rebuilt from what it is.
 */
export async function read(session: PluginSession, req: providerProto.ReadRequest): Promise<providerProto.ReadResponse> {
  const kind = kindOf(req.getUrn());
  const props = fromStruct(req.getProperties());
  const given = fromStruct(req.getInputs());
  const secrets = secretNames(kind, props.secrets, given.secrets);
  const importing = Object.keys(props.values).length === 0;
  const context = await session.proven();
  const result = await implementationOf(kind).read(context, req.getId(), props.values);
  const response = new providerProto.ReadResponse();
  if (result.id === undefined) return response;
  response.setId(result.id);
  // A refresh before the object is next written keeps the mark.
  const marked = importing ? [...RESOURCES[kind].secrets] : props.values[UNRECORDED_SECRETS];
  const unrecorded = Array.isArray(marked) && marked.length > 0 ? { [UNRECORDED_SECRETS]: marked } : {};
  response.setProperties(toStruct({ ...(result.props as Values), ...unrecorded }, secrets));
  // Inputs the service never returns (secrets) are kept as they were given.
  const inputs = { ...pick(given.values, RESOURCES[kind].secrets), ...(result.inputs as Values | undefined) };
  response.setInputs(toStruct(importing ? withUnreadMarked(kind, inputs) : inputs, secrets));
  return response;
}

/** Inputs the service never returns: the kind's write-only fields and its secrets. */
function unreadNames(kind: ResourceKind): string[] {
  const table = RESOURCES[kind].tableOperations.table as Record<string, { writeOnly?: true }>;
  const writeOnly = Object.keys(table).filter((name) => table[name]!.writeOnly);
  return [...new Set([...writeOnly, ...RESOURCES[kind].secrets])];
}

/** An import's inputs, marked with those of them it could not read, for the engine's check of them. */
function withUnreadMarked(kind: ResourceKind, inputs: Values): Values {
  const unread = unreadNames(kind).filter((name) => inputs[name] === undefined);
  return unread.length === 0 ? inputs : { ...inputs, [UNREAD_INPUTS]: unread };
}

function pick(values: Values, names: readonly string[]): Values {
  return Object.fromEntries(names.filter((name) => values[name] !== undefined).map((name) => [name, values[name]]));
}

export async function update(session: PluginSession, req: providerProto.UpdateRequest): Promise<providerProto.UpdateResponse> {
  const kind = kindOf(req.getUrn());
  const olds = fromStruct(req.getOlds());
  const news = fromStruct(req.getNews());
  const secrets = secretNames(kind, olds.secrets, news.secrets);
  if (req.getPreview()) return previewed(new providerProto.UpdateResponse(), kind, news.values, olds.values, secrets);
  const implementation = implementationOf(kind);
  if (!implementation.update) throw new ProviderError(`${kind} cannot be updated in place, yet its diff asked for an update`);
  const context = await session.proven();
  const result = await keepingSecrets(secrets, () => implementation.update!(context, req.getId(), olds.values, news.values));
  const response = new providerProto.UpdateResponse();
  response.setProperties(toStruct(result.outs as Values, secrets));
  return response;
}

export async function remove(session: PluginSession, req: providerProto.DeleteRequest): Promise<void> {
  const kind = kindOf(req.getUrn());
  const context = await session.proven();
  await saidToStay(implementationOf(kind).delete(context, req.getId(), fromStruct(req.getProperties()).values));
}

/**
 * A create's or an update's preview: the inputs, as the engine previews a provider without
 * previews, but for the outputs the object does not have yet (the kind's `unknownAtPreview`),
 * which are unknown until `up` gives them.
 */
function previewed<R extends { setProperties(value: ReturnType<typeof toStruct>): unknown }>(
  response: R,
  kind: ResourceKind,
  inputs: Values,
  olds: Values,
  secrets: Set<string>,
): R {
  const declared = (RESOURCES[kind] as ResourceDeclaration).unknownAtPreview ?? [];
  const unknown = declared.filter((name) => !sameValue(inputs[name], olds[name]));
  response.setProperties(toStruct({ ...inputs, ...Object.fromEntries(unknown.map((name) => [name, UNKNOWN_VALUE])) }, secrets));
  return response;
}

/** A failure that keeps the object carries its properties: they go to state, so their secrets stay wrapped. */
async function keepingSecrets<T>(secrets: Set<string>, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof Error) (error as Error & { secretNames?: Set<string> }).secretNames = secrets;
    throw error;
  }
}
