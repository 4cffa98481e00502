/**
 * `pulumi-etl/runtime`: what the serialized provider (dynamic.ts) loads in the provider process. It dispatches by
 * resource kind and makes failures readable: an error the user can act on (configuration, an API
 * answer, a broken response) reaches the CLI as one line, not as a stack trace.
 */
import "./compile-cache";
import type * as pulumi from "@pulumi/pulumi";
import { isDynamicProviderHost } from "./cancellation";
import { configuredBy, fromEnvironment, processResources, type OperationContext } from "./context";
import { UserFacingError } from "./errors";
import { declarationOf } from "./resources/declaration-of";
import type { ResourceKind } from "./resources/registry";
import { provenContext } from "./settings-proof";
import type { ResourceImplementation } from "./resources/shared/implementation";

// What the provider process shares whichever kind sends: one allowance, one client per settings,
// one cancellation, one way to the engine's log.
const PROCESS = processResources();

/** An error whose message says it all; the dynamic provider host prints `${e}: ${e.stack}`. */
class ProviderFailure extends Error {
  constructor(message: string, extra: { id?: unknown; properties?: unknown; reasons?: unknown }) {
    super(message);
    this.stack = message;
    Object.assign(this, extra);
  }
  override toString(): string {
    return "pulumi-etl";
  }
}

/**
 * Runs an operation, making user-facing failures one line. `provider` is the serialized provider
 * of the call: when a failure keeps the object in state, the engine stores the failure's
 * properties as its outputs and later loads the provider from them, so it must go along.
 */
async function reported<T>(operation: () => Promise<T>, provider?: unknown): Promise<T> {
  try {
    return await PROCESS.cancellation.tracked(operation);
  } catch (error) {
    if (!(error instanceof UserFacingError)) throw error;
    const { id, properties, reasons } = error as { id?: unknown; properties?: Record<string, unknown>; reasons?: unknown };
    const kept = properties === undefined || provider === undefined ? properties : { ...properties, __provider: provider };
    throw new ProviderFailure(error.message, { id, properties: kept, reasons });
  }
}

const storedProvider = (props: Record<string, unknown> | undefined) => props?.__provider;

const STAYS = "it stays in the stack, and the next `pulumi destroy` (or `pulumi up`) tries again";

/** A delete that fails leaves the resource in the stack (the engine keeps it); its message says so. */
export async function saidToStay(deletion: Promise<void>): Promise<void> {
  try {
    await deletion;
  } catch (error) {
    if (error instanceof UserFacingError && !error.message.includes("stays in the stack")) error.message = `${error.message}; ${STAYS}`;
    throw error;
  }
}

export function providerFor(kind: ResourceKind): Required<pulumi.dynamic.ResourceProvider> {
  // Inputs and outputs arrive from the engine untyped; `check` has validated the inputs.
  const impl: ResourceImplementation<unknown, unknown> | undefined = declarationOf(kind)?.implementation;
  if (!impl) throw new Error(`pulumi-etl has no resource kind "${kind}"; is the installed package older than the program's?`);
  // The host is started with the engine's address as its first argument; a program's process (which runs the functions) has its own signal handling and stdin.
  if (isDynamicProviderHost()) PROCESS.cancellation.installHooks({ engine: process.argv[2], progress: PROCESS.progress, hostCalls: true });
  // Without a `configure` call (older engines), environment variables still work.
  let context: () => OperationContext = configuredBy(fromEnvironment, PROCESS, true);
  /** The context once its settings are proven (settings-proof.ts): every operation but a refused check waits for it. */
  const proven = () => provenContext(context);
  return {
    configure: async (req) => {
      context = configuredBy((key) => req.config.get(key), PROCESS, true);
    },
    check: (olds, news) =>
      reported(async () => {
        const result = await impl.check(olds, news, PROCESS.progress.reporter);
        if (!result.failures?.length) await proven();
        return { inputs: result.inputs, failures: result.failures ?? [] };
      }),
    diff: (id, olds, news) =>
      reported(async () => {
        await proven();
        return impl.diff(id, olds, news, context);
      }),
    create: (inputs) => reported(async () => impl.create(await proven(), inputs), storedProvider(inputs)),
    read: (id, props) => reported(async () => impl.read(await proven(), id, props)),
    update: (id, olds, news) =>
      reported(async () => {
        if (!impl.update) throw new Error(`${kind} cannot be updated in place, yet its diff asked for an update`);
        return impl.update(await proven(), id, olds, news);
      }, storedProvider(news)),
    delete: (id, props) => reported(async () => saidToStay(impl.delete(await proven(), id, props))),
  };
}
