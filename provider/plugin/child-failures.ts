/**
 * A component's children answer to the engine, not to the component. The engine never answers
 * the registration of a child whose check or operation failed, so a construct waiting for that
 * child's outputs would wait until the engine closes the plugin's connection, which the engine
 * then reports as the component's own failure ("grpc: the client connection is closing"), an
 * error on top of the child's (pulumi/pulumi#19275). The children are this plugin's own
 * resources, so their failures pass through this process: a construct watches its children's
 * URNs, and a failure of one of them ends the construct with what it has, before the child's
 * failure goes back to the engine.
 */

export interface ChildWatch {
  /** Resolves when one of the children fails. */
  failure: Promise<void>;
  stop(): void;
}

/** The children's failures one plugin's calls have seen, and the constructs waiting on them. */
export interface ChildFailures {
  /** Watches the children's URNs; the failure of one that failed before the watch began counts as well. */
  watchChildren(urns: readonly string[]): ChildWatch;
  /**
   * Notes that the call for `urn` failed. When a construct waits on it, resolves once that
   * construct has answered, so the engine hears of the component before it hears of the failure
   * and stops the deployment.
   */
  childFailed(urn: string | undefined): Promise<void>;
}

/** One plugin's: made with its service (server.ts), so a second one in the process starts with none. */
export function childFailures(): ChildFailures {
  const watchers = new Map<string, () => void>();
  /** Failures seen before their construct watched them (its children's URNs are known once its own is). */
  const failed = new Set<string>();
  return {
    watchChildren: (urns) => watchChildren(watchers, failed, urns),
    childFailed: (urn) => childFailed(watchers, failed, urn),
  };
}

function watchChildren(watchers: Map<string, () => void>, failed: Set<string>, urns: readonly string[]): ChildWatch {
  let end!: () => void;
  const failure = new Promise<void>((resolve) => {
    end = resolve;
  });
  if (urns.some((urn) => failed.has(urn))) end();
  else for (const urn of urns) watchers.set(urn, end);
  return {
    failure,
    stop: () => {
      for (const urn of urns) if (watchers.get(urn) === end) watchers.delete(urn);
    },
  };
}

async function childFailed(watchers: Map<string, () => void>, failed: Set<string>, urn: string | undefined): Promise<void> {
  if (!urn) return;
  failed.add(urn);
  const end = watchers.get(urn);
  if (end === undefined) return;
  end();
  // The construct answers in the microtasks that follow `end`, all before the next turn of the loop.
  await new Promise((resolve) => setImmediate(resolve));
}

/** The URN of a child of the resource `parent`: its qualified type is the parent's, then the child's. */
export function childUrn(parent: string, type: string, name: string): string {
  // urn:pulumi:<stack>::<project>::<qualified type>::<name>
  const [stack, project, qualifiedType] = parent.split("::");
  return `${stack}::${project}::${qualifiedType}$${type}::${name}`;
}
