/**
 * What a field table is made of, and the types it yields: a field's declaration, the inputs,
 * outputs and create body a table makes, and the check that a program's `Args` and its table
 * name the same inputs. `fields.ts` makes the operations from a table.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { FieldReference } from "./referenced-objects";

type Values = Record<string, unknown>;

export interface Field<Rec> {
  /**
   * What an output is, for the schema, the SDKs and the reference pages. An input says it in
   * its doc comment on the table, which editors show on the program's arguments too.
   */
  description?: string;
  /** The input's rule; values still unknown in a preview pass it unchecked. */
  input?: z.ZodType;
  /** What a program passes, when it is more than `pulumi.Input` of what the rule takes (`takes<T>()`). */
  program?: ProgramType<unknown>;
  required?: boolean;
  /** What an omitted input stands for: a value, or one computed from the other inputs. */
  default?: unknown;
  defaultFrom?: (values: Values) => unknown;
  /** Omitted, the service chooses the value, and it is never compared. */
  unmanagedWhenOmitted?: boolean;
  /** Omitted while this holds of the inputs, the service chooses the value (a template gives a package's description). */
  unmanagedWhenOmittedIf?: (inputs: Values) => boolean;
  /** What a change of the input does; without it the input is never compared. */
  onChange?: "update" | "replace";
  /**
   * The field in request bodies; dots nest it (`connection_group.name`). Several fields, when one
   * input is several in the API: `toApi` then gives their values in order. Without it, never sent.
   */
  api?: (keyof Rec & string) | (string & {}) | readonly string[];
  /** Sent, but never read back (the service does not return it): its output is the input. */
  writeOnly?: true;
  /** The value as the API takes it, when it is not the input as it is. */
  toApi?: (value: never) => unknown;
  /** Omitted, the create sends the default rather than nothing. */
  sendDefault?: boolean;
  /** The output, from the service's record. */
  read?: (record: Rec) => unknown;
  /** An output that is the record's field of the same name in snake_case (`createdAt`: `created_at`). */
  output?: true;
  /** The value a diff compares, from the recorded outputs, when it is not the output as it is. */
  current?: (outputs: Values) => unknown;
  /** What a diff compares of the input, when not the input itself; `current` then gives the same from the outputs. */
  compared?: (value: never) => unknown;
  /** The input names other objects of the service by id: `up` reads what it names before anything is made from it (referenced-objects.ts). */
  refersTo?: FieldReference;
}

export type FieldTable<Rec> = Record<string, Field<Rec>>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type KeysWhere<T, Condition> = { [K in keyof T]: T[K] extends Condition ? K : never }[keyof T];
type InputKeys<T> = KeysWhere<T, { input: z.ZodType }>;
type RequiredKeys<T> = KeysWhere<T, { input: z.ZodType; required: true }>;
type ReadKeys<T> = Exclude<KeysWhere<T, { read: (record: never) => unknown } | { output: true } | { api: string }>, KeysWhere<T, { writeOnly: true }>>;
/** `connection_group.name` → `name`. */
type LastPart<S extends string> = S extends `${string}.${infer Rest}` ? LastPart<Rest> : S;
type InputValue<F> = F extends { input: infer S extends z.ZodType } ? z.output<S> : never;
/** `createdAt` → `created_at`. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;
type ReadValue<F, K, Rec> = F extends { read: (record: never) => infer V }
  ? V
  : F extends { output: true }
    ? SnakeCase<K & string> extends keyof Rec
      ? Rec[SnakeCase<K & string>]
      : never
    : F extends { api: infer A extends string }
      ? LastPart<A> extends keyof Rec
        ? Rec[LastPart<A>]
        : never
      : never;

/** A table entry for an output that is the record's field of the same name, in snake_case. */
export const OUTPUT = { output: true } as const;

/** The same, with what the output is for the schema, the SDKs and the reference pages. */
export function output(description: string) {
  return { output: true, description } as const;
}

/** What the outputs many kinds share are, unless a field says otherwise. */
export const COMMON_OUTPUT_DOCS: Readonly<Record<string, string>> = {
  createdAt: "When the service made the object (ISO 8601).",
  updatedAt: "When the object last changed on the service (ISO 8601).",
  ownerId: "The id of the user who made the object.",
  htmlUrl: "The object's page in the service's web application.",
};

export function snakeCaseOf(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

declare const PROGRAM_TYPE: unique symbol;

/** A type a program's argument has, carried by a table entry: it exists for the compiler only. */
export interface ProgramType<T> {
  readonly [PROGRAM_TYPE]?: T;
}

/** The program's type of an input, when the rule's own input type says too little (`z.unknown()` and the like). */
export function takes<T>(): ProgramType<T> {
  return {};
}

type ProgramValue<F> = F extends { program: ProgramType<infer P> } ? P : F extends { input: infer S extends z.ZodType } ? pulumi.Input<z.input<S>> : never;
type OptionalInputKeys<T> = Exclude<InputKeys<T>, RequiredKeys<T>>;

/**
 * A program's arguments, from the table: each input once, required when the table says so, with
 * the doc comment written on its entry (key-preserving mapped types keep it for editors).
 */
export type ArgsOf<T> = Simplify<
  { [K in keyof T as K extends RequiredKeys<T> ? K : never]: ProgramValue<T[K]> } & {
    [K in keyof T as K extends OptionalInputKeys<T> ? K : never]?: ProgramValue<T[K]>;
  }
>;

/** What a field sends: its converted value, or the input as it is. */
type ApiValue<F> = F extends { toApi: (value: never) => infer R } ? R : InputValue<F>;
/** One entry per field sent under one name: its path in the body, its value, whether always sent. */
type BodyEntry<T> = {
  [K in keyof T]: T[K] extends { api: infer A extends string }
    ? { path: A; value: ApiValue<T[K]>; always: T[K] extends { required: true } | { sendDefault: true } ? true : false }
    : never;
}[keyof T];
type BodyLevel<E extends { path: string; value: unknown; always: boolean }> = {
  [X in E as X["path"] extends `${string}.${string}` ? never : X["always"] extends true ? X["path"] : never]: X["value"];
} & {
  [X in E as X["path"] extends `${string}.${string}` ? never : X["always"] extends true ? never : X["path"]]?: X["value"];
} & {
  [P in E["path"] as P extends `${infer Head}.${string}` ? Head : never]: BodyLevel<
    E extends { path: `${P extends `${infer Head}.${string}` ? Head : never}.${infer Rest}` } ? { path: Rest; value: E["value"]; always: E["always"] } : never
  >;
};
/**
 * The create's body as the table sends it, typed, so it meets the endpoint's body type without
 * a cast. Fields spread over several API names (`api: [...]`) are left to the endpoint's type.
 */
export type CreateBodyOf<T> = Simplify<BodyLevel<BodyEntry<T>>>;

/** The inputs after `check`: omitted ones stay omitted, so "default" and "not managed" stay apart. */
export type InputsOf<T> = Simplify<{ [K in RequiredKeys<T>]: InputValue<T[K]> } & { [K in Exclude<InputKeys<T>, RequiredKeys<T>>]?: InputValue<T[K]> }>;

/** The recorded outputs: the service's record, and the provider's own inputs. */
export type OutputsOf<T, Rec = never> = Simplify<
  { [K in ReadKeys<T>]: ReadValue<T[K], K, Rec> } & { [K in Exclude<InputKeys<T>, ReadKeys<T>>]?: InputValue<T[K]> } & { [INPUTS_SET]?: string[] }
>;

/**
 * Recorded with the outputs of a resource that has inputs the service fills in when omitted:
 * the inputs the program set, so a refresh rebuilds only those.
 */
export const INPUTS_SET = "__inputsSet";

/** The fields of a nested object input: each its rule, its doc comment, and whether it is required. */
export type ObjectFields = Record<string, { input: z.ZodType; required?: true; program?: ProgramType<unknown> }>;

type ObjectShape<T extends ObjectFields> = { [K in keyof T]: T[K] extends { required: true } ? T[K]["input"] : z.ZodOptional<T[K]["input"]> };

/**
 * A nested object's rule from the table of its fields, so its fields are named once: the rule
 * takes them (and no others), and the program's type is `ArgsOf` the same table.
 */
export function objectRule<const T extends ObjectFields>(fields: T): z.ZodObject<ObjectShape<T>, z.core.$strict> {
  const shape = Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.required ? field.input : field.input.optional()]));
  return z.strictObject(shape as ObjectShape<T>);
}
