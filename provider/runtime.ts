/**
 * `pulumi-etl/runtime`: what the serialized shim loads in the provider process. It dispatches by
 * resource kind and makes failures readable: an error the user can act on (configuration, an API
 * answer, a broken response) reaches the CLI as one line, not as a stack trace.
 */
import type * as pulumi from "@pulumi/pulumi";
import { UnexpectedResponseError } from "./api/records";
import { EtlApiError } from "./client/errors";
import { ConfigurationError } from "./config";
import { configureFrom } from "./context";
import { clusterProvider } from "./resources/cluster";
import { connectionGroupProvider } from "./resources/connection-group";
import { ResourceFailure } from "./resources/failures";
import { jobRunProvider } from "./resources/job-run";
import { publicKeyProvider } from "./resources/public-key";
import type { ResourceKind } from "./shim";

interface Implementation {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ inputs: unknown; failures?: pulumi.dynamic.CheckFailure[] }>;
  diff(id: string, olds: any, news: any): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: any): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: any): Promise<pulumi.dynamic.ReadResult>;
  update?(id: string, olds: any, news: any): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: any): Promise<void>;
}

const IMPLEMENTATIONS: Record<ResourceKind, Implementation> = {
  PublicKey: publicKeyProvider,
  ConnectionGroup: connectionGroupProvider,
  Cluster: clusterProvider,
  JobRun: jobRunProvider,
};

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

function isUserFacing(error: unknown): error is Error {
  return (
    error instanceof EtlApiError ||
    error instanceof ConfigurationError ||
    error instanceof UnexpectedResponseError ||
    error instanceof ResourceFailure
  );
}

async function reported<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!isUserFacing(error)) throw error;
    const { id, properties, reasons } = error as { id?: unknown; properties?: unknown; reasons?: unknown };
    throw new ProviderFailure(error.message, { id, properties, reasons });
  }
}

export function providerFor(kind: ResourceKind): Required<pulumi.dynamic.ResourceProvider> {
  const impl = IMPLEMENTATIONS[kind];
  if (!impl) throw new Error(`pulumi-etl has no resource kind "${kind}"; is the installed package older than the program's?`);
  return {
    configure: async (req) => configureFrom((key) => req.config.get(key)),
    check: (olds, news) => reported(async () => {
      const result = await impl.check(olds, news);
      return { inputs: result.inputs, failures: result.failures ?? [] };
    }),
    diff: (id, olds, news) => reported(() => impl.diff(id, olds, news)),
    create: (inputs) => reported(() => impl.create(inputs)),
    read: (id, props) => reported(() => impl.read(id, props)),
    update: (id, olds, news) =>
      reported(async () => {
        if (!impl.update) throw new Error(`${kind} cannot be updated in place, yet its diff asked for an update`);
        return impl.update(id, olds, news);
      }),
    delete: (id, props) => reported(() => impl.delete(id, props)),
  };
}
