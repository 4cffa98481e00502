/**
 * The engine creates a replacement before it deletes the original unless the resource sets the
 * `deleteBeforeReplace` option, and on `pulumi up --replace` it asks the provider nothing (its
 * check does not even see the recorded inputs), so the option alone decides. The dynamic
 * resources' classes set it for the kinds whose account holds a name, a key or an email once; a
 * plugin program sets it itself, and without it the new object's create meets the original.
 */
import { AlreadyInAccount } from "../resources/shared/failures";

/** A create refused as "already in the account" also names the replacement's order, for a kind that deletes first. */
export async function sayingWhenReplacementCameFirst<T>(deletesFirst: boolean, create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (!deletesFirst || !(error instanceof AlreadyInAccount)) throw error;
    throw new AlreadyInAccount(
      error.found,
      error.unrecorded,
      `${error.found}. If it is this resource's original in a replacement (\`pulumi up --replace\`): the engine creates ` +
        "the new one before it deletes the original unless the resource sets the `deleteBeforeReplace` option, and the account holds " +
        `it once; nothing was changed: set \`deleteBeforeReplace: true\` in this resource's options and run the replacement again. If not, ${error.unrecorded}`,
    );
  }
}
