/**
 * Property values between the engine's protobuf structs and plain objects. Secrets arrive wrapped
 * (the plugin accepts secrets, so it can mark its own outputs secret): they are unwrapped for the
 * resource code, and the names of the top-level properties that held one are kept, so the same
 * outputs go back wrapped. A resource given as a value arrives as a reference: it stands for
 * its id, unless the caller says otherwise (a check resolves each by the input it is in).
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";

export const SPECIAL_SIGNATURE = "4dabf18193072939515e22adb298388d";
export const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";
const RESOURCE_SIGNATURE = "5cf8f73096256a8f31e491e813e4eb8e";

export type Values = Record<string, unknown>;

export interface Unwrapped {
  values: Values;
  /** Top-level properties that held a secret anywhere inside. */
  secrets: Set<string>;
}

function isSecret(value: unknown): value is { value: unknown } {
  return value !== null && typeof value === "object" && (value as Values)[SPECIAL_SIGNATURE] === SECRET_SIGNATURE;
}

/** A resource the program gave as a value: its URN, which names its type, and its id (unknown while it is to be made). */
export interface ResourceReference {
  urn: string;
  id: unknown;
}

/** What a reference found at `path` (names and list indexes from the top-level input) stands for. */
export type ReferenceValue = (reference: ResourceReference, path: ReadonlyArray<string | number>) => unknown;

/** A resource reference stands for its id (or its URN when it has none). */
export const referenceId: ReferenceValue = (reference) => (reference.id !== undefined && reference.id !== "" ? reference.id : reference.urn);

function plain(value: unknown, path: Array<string | number>, found: () => void, reference: ReferenceValue): unknown {
  if (Array.isArray(value)) return value.map((item, index) => plain(item, [...path, index], found, reference));
  if (value === null || typeof value !== "object") return value;
  const object = value as Values;
  if (isSecret(object)) {
    found();
    return plain(object.value, path, found, reference);
  }
  if (object[SPECIAL_SIGNATURE] === RESOURCE_SIGNATURE) return reference({ urn: String(object.urn), id: object.id }, path);
  return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, plain(item, [...path, key], found, reference)]));
}

export function fromStruct(struct: Struct | undefined, reference: ReferenceValue = referenceId): Unwrapped {
  const raw = (struct?.toJavaScript() ?? {}) as Values;
  const secrets = new Set<string>();
  const values = Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, plain(value, [name], () => secrets.add(name), reference)]));
  return { values, secrets };
}

/** Undefined cannot be encoded: such keys are left out, at every depth. */
function encodable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : encodable(item)));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Values)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => [key, encodable(item)]),
  );
}

export function secretValue(value: unknown): Values {
  return { [SPECIAL_SIGNATURE]: SECRET_SIGNATURE, value };
}

export function toStruct(values: Values, secrets: Iterable<string> = []): Struct {
  const wrapped = { ...(encodable(values) as Values) };
  for (const name of secrets) {
    if (wrapped[name] !== undefined && !isSecret(wrapped[name])) wrapped[name] = secretValue(wrapped[name]);
  }
  return Struct.fromJavaScript(wrapped as Parameters<typeof Struct.fromJavaScript>[0]);
}
