/**
 * A failure the user can act on (a job that failed, a wait that timed out, an object that
 * cannot be adopted). Given the object's id, the engine keeps the object in state with these
 * properties (partial state), so the next `up` carries on from it instead of losing it.
 */
export class ResourceFailure extends Error {
  /**
   * For a failure that keeps the object the engine prints only these, and records them as the
   * resource's init errors, which is what makes the next `up` retry it even with unchanged inputs.
   */
  readonly reasons?: string[];

  constructor(
    message: string,
    readonly id?: string,
    readonly properties?: object,
  ) {
    super(message);
    this.name = "ResourceFailure";
    if (id !== undefined) this.reasons = [message];
  }
}
