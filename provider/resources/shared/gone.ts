import { NotFoundError } from "../../client/errors";

/**
 * The answer, or undefined when the service no longer knows the object: to a read that is a
 * deletion made elsewhere, and to a delete it is what was wanted.
 */
export async function unlessGone<T>(answer: Promise<T>): Promise<T | undefined> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
