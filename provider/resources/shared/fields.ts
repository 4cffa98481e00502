/**
 * A resource's fields, declared once. Each entry of a resource's table says what the field is as
 * an input (its rule, whether it is required, what an omitted value means), what a change does
 * (update in place or replace), its name in the API's request bodies, and how its output reads
 * from the service's record. Everything the provider does with fields comes from that one table
 * (`fieldOperations`, each kind's `tableOperations`): the input schema of `check`, the diff
 * rules, the create and update bodies, the outputs, the inputs realigned after a refresh, the
 * match of a found object against a create, and the outputs the resource class declares.
 *
 * Three kinds of field:
 * - an input the service holds: `input` + `api`; its output is the record's field of the `api`
 *   name (the last part of a nested one), or what `read` takes when it is not only a rename;
 * - the provider's own input (a timeout, `importId`, a key the service keeps only hashed):
 *   `input` without `api`, or `writeOnly`; its output is the input as given, or its default;
 * - an output only: `read` without `input`, or `OUTPUT` for the record's field of the same name.
 */
import { z } from "zod";
import { isUnknown, unlessUnknown } from "./check";
import { MAX_REQUEST_BODY_BYTES } from "../../../contract/limits";
import { changedFields, containsUnknown, diffByRules, sameValue, type DiffOptions, type FieldRules } from "./diff";
import { inputReference } from "./referenced-objects";

type Values = Record<string, unknown>;

export {
  COMMON_OUTPUT_DOCS,
  INPUTS_SET,
  OUTPUT,
  objectRule,
  output,
  takes,
  type ArgsOf,
  type CreateBodyOf,
  type Field,
  type FieldTable,
  type InputsOf,
  type OutputsOf,
} from "./field-types";
import { INPUTS_SET, snakeCaseOf, type CreateBodyOf, type Field, type FieldTable, type InputsOf, type OutputsOf } from "./field-types";

/** The engine cannot encode undefined values: such keys are left out. */
export function definedOnly<V extends object>(value: V): V {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as V;
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "");
}

/** The record's field an output only renames, when `read` does not say otherwise. */
function renamedFrom<Rec>(name: string, field: Field<Rec>): string | undefined {
  if (field.read !== undefined || field.writeOnly) return undefined;
  if (field.output) return snakeCaseOf(name);
  if (field.toApi !== undefined && field.api !== undefined) {
    throw new Error(`field ${name} converts its value for the API (toApi): declare how to read it back (read), or that it is writeOnly`);
  }
  return typeof field.api === "string" ? field.api.split(".").at(-1) : undefined;
}

export interface FieldOperationsOptions<Inputs> {
  /** Rules across fields, worded like the schema's ("must be …"), run after every field passed. */
  refine?: (inputs: Inputs, ctx: z.RefinementCtx) => void;
}

export function fieldOperations<Rec, const T extends FieldTable<Rec>>(table: T, options: FieldOperationsOptions<InputsOf<T>> = {}) {
  type Inputs = InputsOf<T>;
  type Outputs = OutputsOf<T, Rec>;
  const entries = (Object.entries(table) as Array<[string, Field<Rec>]>).map(([name, field]): [string, Field<Rec>] => {
    const renamed = renamedFrom(name, field);
    return renamed === undefined ? [name, field] : [name, { ...field, read: (record) => (record as Values)[renamed] }];
  });
  const inputFields = entries.filter(([, field]) => field.input !== undefined);
  /** Outputs read from the service's record. */
  const readFields = entries.filter(([, field]) => field.read !== undefined);
  /** The provider's own inputs: recorded as outputs from the inputs, never read from the service. */
  const ownFields = inputFields.filter(([, field]) => field.read === undefined);
  const recordsInputsSet = entries.some(([, field]) => field.unmanagedWhenOmitted);

  const defaultOf = (field: Field<Rec>, values: Values): unknown => (field.defaultFrom ? field.defaultFrom(values) : field.default);
  const desiredOf = (name: string, field: Field<Rec>, values: Values): unknown => values[name] ?? defaultOf(field, values);
  const comparedOf = (field: Field<Rec>, value: unknown): unknown =>
    field.compared === undefined || value === undefined || isUnknown(value) ? value : field.compared(value as never);
  const isManaged = (name: string, field: Field<Rec>, news: Values) =>
    news[name] !== undefined || !(field.unmanagedWhenOmitted || field.unmanagedWhenOmittedIf?.(news));

  const inputShape = Object.fromEntries(
    inputFields.map(([name, field]) => {
      const rule = unlessUnknown(field.input!);
      return [name, field.required ? rule : rule.optional()];
    }),
  );
  const inputSchema = z.strictObject(inputShape).superRefine((inputs, ctx) => {
    options.refine?.(inputs as Inputs, ctx);
    refuseOversizedBody(inputs, ctx);
  });

  /** What the service would answer 413: the create's body, named by its largest input. */
  function refuseOversizedBody(inputs: Values, ctx: z.RefinementCtx): void {
    if (containsUnknown(inputs)) return;
    const bytes = byteLength(operations.createBody(inputs as Inputs));
    if (bytes <= MAX_REQUEST_BODY_BYTES) return;
    const sent = Object.keys(inputs).filter((name) => table[name]?.api !== undefined);
    const largest = sent.reduce((a, b) => (byteLength(inputs[b]) > byteLength(inputs[a]) ? b : a));
    ctx.addIssue({
      code: "custom",
      path: [largest],
      message: `is too large: the request would be ${bytes} bytes, and the service takes at most ${MAX_REQUEST_BODY_BYTES}`,
    });
  }

  /** The diff rules for these inputs: inputs left to the service are not compared. */
  function rules(news: Inputs): FieldRules<Outputs, Inputs> {
    const compared = entries.filter(([name, field]) => field.onChange !== undefined && isManaged(name, field, news as Values));
    return Object.fromEntries(
      compared.map(([name, field]) => [
        name,
        {
          desired: (values: Inputs) => comparedOf(field, desiredOf(name, field, values as Values)),
          current: (olds: Outputs) => (field.current ? field.current(olds as Values) : desiredOf(name, field, olds as Values)),
          onChange: field.onChange!,
        },
      ]),
    );
  }

  /** The record's part of the outputs. */
  function fromRecord(record: Rec): Values {
    return Object.fromEntries(readFields.map(([name, field]) => [name, field.read!(record)]));
  }

  /** The provider's own inputs as outputs, defaults applied. */
  function ownInputs(inputs: Values): Values {
    return Object.fromEntries(ownFields.map(([name, field]) => [name, desiredOf(name, field, inputs)]));
  }

  function inputsSet(inputs: Values): Values {
    if (!recordsInputsSet) return {};
    return { [INPUTS_SET]: Object.keys(definedOnly(inputs)).filter((name) => !name.startsWith("__")) };
  }

  /** The body's paths and values for one input. */
  function apiPairs(field: Field<Rec>, value: unknown): Array<[string, unknown]> {
    const converted = value === undefined || field.toApi === undefined ? value : field.toApi(value as never);
    if (typeof field.api === "string") return [[field.api, converted]];
    return (field.api ?? []).map((path, index) => [path, (converted as unknown[] | undefined)?.[index]]);
  }

  function bodyOf(pairs: Array<[string, unknown]>): Values {
    const body: Values = {};
    for (const [path, value] of pairs) {
      const keys = path.split(".");
      const last = keys.pop()!;
      const parent = keys.reduce((node, key) => (node[key] ??= {}) as Values, body);
      parent[last] = value;
    }
    return body;
  }

  const operations = {
    /** The table itself: what the plugin's schema is made from. */
    table: Object.fromEntries(entries) as FieldTable<Rec>,
    inputSchema,
    rules,
    /** The inputs that name other objects of the service, by their paths. */
    references: entries.flatMap(([name, field]) => (field.refersTo === undefined ? [] : [inputReference(name, field.refersTo)])),
    /** The outputs a program can read: every field but the ones given as inputs anyway. */
    outputNames: entries.filter(([, field]) => field.read || field.input).map(([name]) => name),

    /** The value an input stands for: as given, or its default. */
    desired(name: keyof Inputs & string, inputs: Inputs): unknown {
      return desiredOf(name, table[name]!, inputs as Values);
    },

    diff(olds: Outputs, news: Inputs, diffOptions?: DiffOptions) {
      return diffByRules(rules(news), olds, news, diffOptions);
    },

    /** The fields a create sends: those given, and defaults where the service needs them said. */
    createBody(inputs: Inputs): CreateBodyOf<T> {
      const values = inputs as Values;
      const sent = entries.filter(([, field]) => field.api !== undefined);
      const pairs = sent.flatMap(([name, field]) => apiPairs(field, field.sendDefault ? desiredOf(name, field, values) : values[name]));
      return bodyOf(pairs.filter(([, value]) => value !== undefined)) as CreateBodyOf<T>;
    },

    /** A PUT body carrying only what differs from the object as last seen; empty when nothing does. */
    updateBody(olds: Outputs, news: Inputs): Values {
      const fieldRules = rules(news);
      const changed = changedFields(fieldRules, olds, news).map((name) => [name, table[name]!] as const);
      const sent = changed.filter(([, field]) => field.api !== undefined && field.onChange === "update");
      return bodyOf(sent.flatMap(([name, field]) => apiPairs(field, desiredOf(name, field, news as Values))));
    },

    /** Outputs of a record just created, updated or found, for these inputs. */
    outputs(record: Rec, inputs: Inputs): Outputs {
      return definedOnly({ ...fromRecord(record), ...ownInputs(inputs as Values), ...inputsSet(inputs as Values) }) as Outputs;
    },

    /** Outputs after a refresh: the record, and the provider's own inputs as recorded before. */
    refreshed(record: Rec, props: Outputs): Outputs {
      const recorded = props as Values;
      const carried = [...ownFields.map(([name]) => name), INPUTS_SET];
      return definedOnly({ ...fromRecord(record), ...Object.fromEntries(carried.map((name) => [name, recorded[name]])) }) as Outputs;
    },

    /**
     * What `read` returns for the record found (undefined: the object is gone): the outputs, and
     * the inputs realigned to them.
     */
    readResult(id: string, record: Rec | undefined, props: Outputs): { id?: string; props?: Outputs; inputs?: Partial<Inputs> } {
      if (record === undefined) return {};
      const outputs = operations.refreshed(record, props);
      return { id, props: outputs, inputs: operations.realignedInputs(outputs) };
    },

    /**
     * Outputs after bringing the object to `news` with `put`, given a body of only what differs;
     * no call when nothing does.
     */
    async updated(olds: Outputs, news: Inputs, put: (body: Values) => Promise<Rec>): Promise<Outputs> {
      const body = operations.updateBody(olds, news);
      if (Object.keys(body).length === 0) return operations.withOwnInputs(olds, news);
      return operations.outputs(await put(body), news);
    },

    /** Outputs after an update that sent nothing: the object as last seen, the own inputs anew. */
    withOwnInputs(olds: Outputs, news: Inputs): Outputs {
      const recorded = Object.fromEntries(readFields.map(([name]) => [name, (olds as Values)[name]]));
      return definedOnly({ ...recorded, ...ownInputs(news as Values), ...inputsSet(news as Values) }) as Outputs;
    },

    /**
     * The inputs that would produce the object as it now is: so a refresh leaves no phantom
     * diff. An input at its default is left out (omitted means the default); one the service
     * fills in is kept only when the program set it.
     */
    realignedInputs(outputs: Outputs): Partial<Inputs> {
      const values = outputs as Values;
      const set = values[INPUTS_SET] as string[] | undefined;
      const kept = inputFields.flatMap(([name, field]): Array<[string, unknown]> => {
        // A compared value is not an input: the input is the output as recorded.
        const value = field.current && !field.compared ? field.current(values) : values[name];
        if (value === undefined) return [];
        if (field.unmanagedWhenOmitted) return set === undefined || set.includes(name) ? [[name, value]] : [];
        const isDefault = (field.default !== undefined || field.defaultFrom !== undefined) && sameValue(value, defaultOf(field, values));
        return isDefault && !field.required ? [] : [[name, value]];
      });
      return Object.fromEntries(kept) as Partial<Inputs>;
    },

    /**
     * Whether a record has every value a create of these inputs sent (defaults for omitted ones,
     * any value where the service chooses): the test of "this may be the object it made".
     */
    hasSentValues(record: Rec, inputs: Inputs): boolean {
      const found = { ...fromRecord(record), ...ownInputs(inputs as Values) } as Outputs;
      const sentRules = Object.fromEntries(Object.entries(rules(inputs)).filter(([name]) => table[name]!.api !== undefined));
      return changedFields(sentRules, found, inputs).length === 0;
    },
  };
  return operations;
}
