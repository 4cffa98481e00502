/**
 * A kind declared `singleton` is one object the service holds for an API key (UserSettings: the
 * key's user's settings). Two resources of it under one provider would each take that object
 * over, and every `up` would set it back to the other's inputs, for ever. A kind declared
 * `oncePer` an input is one object per value of it (ClusterWatcher: a user watches a cluster
 * once): two resources with one value would share it, and removing either would end what the
 * other records. The second one is refused at preview, naming both: by the plugin's check, per
 * provider process (each provider is one API key), and by the resource class, per run of a
 * program (every dynamic resource uses the stack's settings). This module loads nothing of
 * `@pulumi/pulumi`: the plugin loads it.
 */

/** The one object two resources would share: the kind's, or (`input` and its `value`) the one a value of an input names. */
export interface ClaimedObject {
  kind: string;
  input?: string;
  value?: string;
}

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

/** The refusal of a second resource holding `held`, in the words of its kind. */
export function secondHolder(held: ClaimedObject, first: string, second: string, scope: string): string {
  if (held.input === undefined) return secondSingleton(held.kind, first, second, scope);
  const { kind, input, value } = held;
  return (
    `${kind} ${second} and ${kind} ${first} both have ${input} ${value}, which is one object of the service for an API key: ` +
    `removing either would end what the other records; declare one ${kind} per ${input} under a ${scope}`
  );
}

/** The key an object is held by. */
function keyOf(held: ClaimedObject): string {
  return held.input === undefined ? held.kind : `${held.kind}\u0000${held.input}\u0000${held.value}`;
}

/** Which resource holds each object of a singleton kind or a `oncePer` value: the first one seen. */
export class SingletonHolders {
  private readonly holders = new Map<string, string>();
  /** What each resource holds now, by kind: a resource checked again with another value lets the old one go. */
  private readonly held = new Map<string, string>();

  /**
   * The resource already holding the object, when it is another than `resource`. The same one
   * seen again (a preview then an update, a replacement) is no second.
   */
  claim(object: ClaimedObject | string, resource: string): string | undefined {
    const held: ClaimedObject = typeof object === "string" ? { kind: object } : object;
    const key = keyOf(held);
    const holder = this.holders.get(key);
    if (holder !== undefined && holder !== resource) return holder;
    const before = this.held.get(`${held.kind}\u0000${resource}`);
    if (before !== undefined && before !== key) this.holders.delete(before);
    this.holders.set(key, resource);
    this.held.set(`${held.kind}\u0000${resource}`, key);
    return undefined;
  }
}
