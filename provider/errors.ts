/**
 * The one base of every error a user can act on (a setting, an API answer, a broken response, an
 * object that cannot be adopted): the runtime reports these as one line, without a stack trace.
 * Anything else is a defect of the provider and keeps its stack.
 */
export class UserFacingError extends Error {}
