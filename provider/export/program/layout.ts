/**
 * What the three program writers share: the order objects are declared in (each after the
 * objects it refers to), which objects another refers to, the schema's view of each input, and
 * the layout of a literal (on one line when short, else one part per line).
 */
import { packageSchema, typeToken } from "../../plugin/schema";
import { ConfigValue, FileText, ResourceReference } from "../../resources/shared/exported";
import type { ExportedObject } from "../read";

export type Spec = Record<string, unknown>;

const LINE_WIDTH = 100;

/** Declared after everything it refers to; otherwise in the export's order. */
export function declarationOrder(objects: readonly ExportedObject[]): ExportedObject[] {
  const byKey = new Map(objects.map((object) => [`${object.kind}:${object.id}`, object]));
  const ordered: ExportedObject[] = [];
  const placed = new Set<string>();
  const place = (object: ExportedObject) => {
    const key = `${object.kind}:${object.id}`;
    if (placed.has(key)) return;
    placed.add(key);
    for (const reference of referencesIn(object.inputs)) {
      const target = byKey.get(`${reference.kind}:${reference.id}`);
      if (target !== undefined) place(target);
    }
    ordered.push(object);
  };
  objects.forEach(place);
  return ordered;
}

export function referencesIn(value: unknown): ResourceReference[] {
  if (value instanceof ResourceReference) return [value];
  if (value instanceof ConfigValue || value instanceof FileText || value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(referencesIn);
}

/** The `kind:id` of every object another refers to. */
export function referencedObjects(objects: readonly ExportedObject[]): Set<string> {
  return new Set(objects.flatMap((object) => referencesIn(object.inputs).map((reference) => `${reference.kind}:${reference.id}`)));
}

/** Each object's variable, by `kind:id`. */
export function variablesOf(objects: readonly ExportedObject[]): Map<string, string> {
  return new Map(objects.map((object) => [`${object.kind}:${object.id}`, object.variable]));
}

/** The schema's view of the inputs, for writing one program. */
export interface ProgramSchema {
  /** The schema's spec of a resource's input. */
  inputSpec(kind: string, name: string): Spec;
  /** The object type a `$ref` names, with its name (`ScheduleTask`), when it is one of the package's. */
  namedType(spec: Spec): { name: string; properties: Record<string, Spec> } | undefined;
}

/** Made once for each program written: the package's schema is built here, not kept by the module. */
export function programSchema(): ProgramSchema {
  const schema = packageSchema() as unknown as { resources: Record<string, { inputProperties: Record<string, Spec> }>; types: Record<string, Spec> };
  return {
    inputSpec: (kind, name) => schema.resources[typeToken(kind)]?.inputProperties[name] ?? { $ref: "pulumi.json#/Any" },
    namedType: (spec) => {
      const ref = spec.$ref;
      if (typeof ref !== "string" || !ref.startsWith("#/types/")) return undefined;
      const token = ref.slice("#/types/".length);
      const type = schema.types[token];
      return { name: token.split(":").at(-1)!, properties: (type?.properties ?? {}) as Record<string, Spec> };
    },
  };
}

export const isAny = (spec: Spec | undefined) => spec === undefined || spec.$ref === "pulumi.json#/Any" || spec.oneOf !== undefined;

/** `open` parts `close`, on one line when that fits and no part spans lines, else one part per line. */
export function layout(open: string, parts: readonly string[], close: string, indent: Indent): string {
  const inline = `${open}${parts.join(", ")}${close}`;
  if (parts.length === 0) return `${open}${close}`;
  if (inline.length + indent.current.length <= LINE_WIDTH && !inline.includes("\n")) return inline;
  return `${open.trimEnd()}\n${parts.map((part) => `${indent.current}${indent.step}${part},`).join("\n")}\n${indent.current}${close.trimStart()}`;
}

/** Where a literal starts, and one level more: a part of it is written at `deeper(indent)`. */
export interface Indent {
  current: string;
  step: string;
}

export function deeper(indent: Indent): Indent {
  return { current: indent.current + indent.step, step: indent.step };
}

/** A string literal all three languages read alike (JSON's escapes are theirs too). */
export function quoted(text: string): string {
  return JSON.stringify(text);
}
