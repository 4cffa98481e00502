/**
 * A failure the user can act on (a job that failed, a wait that timed out, an object that
 * cannot be adopted). Given the object's id, the engine keeps the object in state with these
 * properties (partial state), so the next `up` carries on from it instead of losing it.
 */
export class ResourceFailure extends Error {
  constructor(
    message: string,
    readonly id?: string,
    readonly properties?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ResourceFailure";
  }
}
