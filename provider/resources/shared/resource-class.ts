/**
 * The class a program instantiates, made from the kind's declaration: the outputs its field
 * table declares, its secrets, whether a replacement deletes first, and for a singleton kind the
 * one resource a program may declare. It sits right below `CustomResource`, like a hand-written class: the SDK takes the
 * user's line as the resource's source position by counting stack frames.
 */
import * as pulumi from "@pulumi/pulumi";
import { resourceType, withProvider } from "../../dynamic";
import type { ResourceDeclaration } from "./declaration";
import { withResourceValues } from "./references";
import { secondHolder, SingletonHolders, type ClaimedObject } from "./singleton";

/** The engine hands a program undefined where the service said null. */
type ProgramValue<T> = null extends T ? Exclude<T, null> | undefined : T;

/** Every output as a property of the resource; the provider's bookkeeping (`__…`) stays out. */
export type OutputProperties<Outputs> = {
  readonly [K in keyof Outputs as K extends `__${string}` ? never : K]-?: pulumi.Output<ProgramValue<Outputs[K]>>;
};

export interface ResourceClass<Args, Outputs> {
  new (name: string, args: Args, opts?: pulumi.CustomResourceOptions): pulumi.CustomResource & OutputProperties<Outputs>;
}

export function resourceClass<Args extends object, Outputs>(declaration: ResourceDeclaration): ResourceClass<Args, Outputs> {
  const kind = declaration.kind;
  // Every output is named in the props (as undefined) so the engine exposes it on the resource.
  const declared = Object.fromEntries(declaration.tableOperations.outputNames.map((name) => [name, undefined]));
  const secrets = declaration.secrets;
  const resourceInputs = declaration.resourceInputs ?? [];
  const oncePer = declaration.oncePer;
  // A forced replacement (`--replace`, for which the engine asks the provider nothing) of an
  // object the service holds once must delete first; options given by the program win.
  const defaults: pulumi.CustomResourceOptions = {
    ...(declaration.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
    ...(secrets.length > 0 ? { additionalSecretOutputs: [...secrets] } : {}),
  };
  const made = class extends pulumi.CustomResource {
    constructor(name: string, args: Args, opts?: pulumi.CustomResourceOptions) {
      const restore = withoutStackTraces();
      try {
        if (declaration.singleton) claimInProgram(kind, name);
        const given = withResourceValues({ ...(args as Record<string, unknown>) }, resourceInputs);
        if (oncePer !== undefined && given[oncePer] !== undefined) given[oncePer] = claimedInProgram(kind, name, oncePer, given[oncePer]);
        const props = withSecrets({ ...declared, ...given }, secrets);
        super(resourceType(kind), name, withProvider(kind, props), withDefaults(opts, defaults));
      } finally {
        restore();
      }
    }
  };
  Object.defineProperty(made, "name", { value: kind });
  return made as unknown as ResourceClass<Args, Outputs>;
}

/** A program declared a singleton kind twice; a `RunError`, so the program's failure shows no stack trace. */
class SecondSingletonError extends pulumi.RunError {
  constructor(message: string) {
    super(message);
    this.name = "SecondSingletonError";
  }
}

// One run of a program is one stack resource: an inline program run again in the same process starts afresh.
const PROGRAM_RUNS = new WeakMap<object, SingletonHolders>();

/**
 * Refuses a second resource of a singleton kind in this run of the program. Outside a stack
 * (a unit test's mocks) there is no run to hold the kind in, and nothing is refused.
 */
function claimInProgram(kind: string, name: string): void {
  refuseSecond({ kind }, name);
}

function refuseSecond(held: ClaimedObject, name: string): void {
  const run = pulumi.runtime.getStackResource();
  if (run === undefined) return;
  let holders = PROGRAM_RUNS.get(run);
  if (holders === undefined) PROGRAM_RUNS.set(run, (holders = new SingletonHolders()));
  const holder = holders.claim(held, name);
  if (holder !== undefined) throw new SecondSingletonError(secondHolder(held, JSON.stringify(holder), JSON.stringify(name), "program"));
}

/**
 * The input of a `oncePer` kind, refused once known when another resource of this run of the
 * program has the same value: the resource then fails to register, before any call.
 */
function claimedInProgram(kind: string, name: string, input: string, value: unknown): pulumi.Output<number | string> {
  return pulumi.output(value as pulumi.Input<number | string>).apply((known) => {
    if (typeof known === "number" || typeof known === "string") refuseSecond({ kind, input, value: String(known) }, name);
    return known;
  });
}

/**
 * An option the program left out or set to undefined takes the resource's default; secret
 * outputs the program names are added to the resource's own.
 */
function withDefaults(opts: pulumi.CustomResourceOptions | undefined, defaults: pulumi.CustomResourceOptions): pulumi.CustomResourceOptions {
  const given = Object.fromEntries(Object.entries(opts ?? {}).filter(([, value]) => value !== undefined)) as pulumi.CustomResourceOptions;
  const secretOutputs = [...(defaults.additionalSecretOutputs ?? []), ...(given.additionalSecretOutputs ?? [])];
  return { ...defaults, ...given, ...(secretOutputs.length > 0 ? { additionalSecretOutputs: secretOutputs } : {}) };
}

function withSecrets(props: Record<string, unknown>, secrets: readonly string[]): Record<string, unknown> {
  const wrapped = secrets.filter((name) => props[name] !== undefined).map((name) => [name, pulumi.secret(props[name])]);
  return { ...props, ...Object.fromEntries(wrapped) };
}

/**
 * Turns stack traces off until the returned function puts them back. The SDK gives each output
 * a class declares an Output of four promises and records a stack trace with each, which only
 * its report of promises left pending at exit ever shows; the Node.js host formats every trace
 * through source maps. At 20 outputs that was most of what a resource cost the program (about
 * 6.5 of 10.5 ms of CPU per job run against 4 ms for a whole no-op resource), and what made
 * `preview` and `up` grow faster with N than the floor's. The resource's source position is
 * recorded under a limit of the SDK's own, so it is kept; an error thrown while registering
 * keeps its message but carries no frames.
 */
export function withoutStackTraces(): () => void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}
