/**
 * The objects the creates of one provider (one API key, one process) made or took over, by kind
 * and id. A create that takes an existing object over (a watch, a settings record, an `importId`)
 * makes the object the new resource's; a delete of the same object that follows it in the same
 * deployment is the end of another resource that recorded it (the original of a replacement that
 * creates first, as `pulumi up --replace` does unless `deleteBeforeReplace` is set), so it sends
 * nothing and leaves the object to the resource that now holds it.
 */
export class HeldObjects {
  private readonly held = new Set<string>();

  /** The object `id` of `kind` is a resource's from now on. */
  note(kind: string, id: string): void {
    this.held.add(`${kind}:${id}`);
  }

  /** Whether a create of this provider made or took over the object; the one delete it protects uses it up. */
  release(kind: string, id: string): boolean {
    return this.held.delete(`${kind}:${id}`);
  }
}
