/**
 * A kind declared `singleton` is one object the service holds for an API key (UserSettings: the
 * key's user's settings). Two resources of it under one provider would each take that object
 * over, and every `up` would set it back to the other's inputs, for ever. The second one is
 * refused at preview, naming both: by the plugin's check, per provider process (each provider
 * is one API key), and by the resource class, per run of a program (every dynamic resource uses
 * the stack's settings). This module loads nothing of `@pulumi/pulumi`: the plugin loads it.
 */

/**
 * What both surfaces say of the second resource; `first` and `second` name each (a name, or a
 * name and its URN), `scope` is what may hold one (a provider, a program).
 */
export function secondSingleton(kind: string, first: string, second: string, scope: string): string {
  return (
    `${kind} ${second} and ${kind} ${first} take over the same object: the service holds one ${kind} for an API key, ` +
    `and two would set it back to each other's inputs at every up; declare one ${kind} per ${scope}`
  );
}

/** Which resource holds each singleton kind: the first one seen. */
export class SingletonHolders {
  private readonly holders = new Map<string, string>();

  /**
   * The resource already holding `kind`, when it is another than `resource`. The same one seen
   * again (a preview then an update, a replacement) is no second.
   */
  claim(kind: string, resource: string): string | undefined {
    const holder = this.holders.get(kind);
    if (holder === undefined) this.holders.set(kind, resource);
    return holder === resource ? undefined : holder;
  }
}
