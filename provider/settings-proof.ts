/**
 * The provider's settings proven against the service before any resource is planned: one call
 * per provider process and settings, `GET {host}/accounts/{etl:accountId}`, which answers only a
 * member of the account with a valid key at a reachable address. Without it a preview with a
 * wrong key passes, and the deployment fails after the merge at its first write.
 *
 * The account's record names its owner, so for an owner's key it also tells who the key's user
 * is, sparing the `GET /user` of the kinds that record their user.
 */
import { getAccountBySlug } from "./api/accounts";
import { AuthenticationError, NotFoundError } from "./client/errors";
import { withCause } from "./client/http";
import { ConfigurationError, SETTINGS, type ProviderConfig } from "./config";
import type { OperationContext } from "./context";
import { UserFacingError } from "./errors";
import { noteCurrentUserId } from "./resources/shared/current-user";

export class SettingsError extends UserFacingError {
  constructor(message: string) {
    super(message);
    this.name = "SettingsError";
  }
}

/**
 * Resolves once the settings are proven (or their proof is switched off); a failed proof fails
 * every operation of these settings with the same message, without asking again.
 */
export function settingsProven(context: OperationContext): Promise<void> {
  if (context.settings.skipCredentialsValidation) return Promise.resolve();
  // Kept with the context: new settings make a new one, and prove themselves again.
  context.learned.proof ??= prove(context);
  return context.learned.proof;
}

/** The context a provider's settings make, once they are proven: what every resource operation runs with. */
export async function provenContext(context: () => OperationContext): Promise<OperationContext> {
  const made = context();
  await settingsProven(made);
  return made;
}

async function prove(context: OperationContext): Promise<void> {
  const { request, settings } = context;
  try {
    const account = await getAccountBySlug(request, settings.accountId);
    if (account.is_owner === true && typeof account.owner_id === "number") noteCurrentUserId(context, account.owner_id);
  } catch (error) {
    throw withCause(new SettingsError(describeFailure(error, settings)), error);
  }
}

const SKIP = `${SETTINGS.skipCredentialsValidation.key} "true" (or ${SETTINGS.skipCredentialsValidation.env}) skips this check`;

function describeFailure(error: unknown, settings: ProviderConfig): string {
  const account = `account "${settings.accountId}" at ${settings.apiUrl}`;
  if (error instanceof AuthenticationError) {
    return (
      `the service refused the API key for ${account} (401 Unauthorized): ${SETTINGS.apiKey.key} (or ${SETTINGS.apiKey.env}) is wrong or revoked, ` +
      `or it is not the key for ${SETTINGS.accountId.key} "${settings.accountId}"`
    );
  }
  if (error instanceof NotFoundError) {
    return (
      `${account} is not one the API key's user can reach (404 Not Found): ${SETTINGS.accountId.key} names an account that does not exist ` +
      `(renamed or deleted?), or ${SETTINGS.apiKey.key} is the key of a user who is not a member of it. If the account was renamed, point ` +
      `${SETTINGS.accountId.key} at its new slug: a provider given an Account resource's slug follows it once \`pulumi refresh\` has read ` +
      "the new slug and `pulumi up` has passed it on"
    );
  }
  // Plain http to a host that answered: skipping the check would not help, the first call would fail alike.
  if (error instanceof ConfigurationError) return error.message;
  const said = error instanceof Error ? error.message : String(error);
  return `the provider's settings could not be checked against ${account}: ${said}; ${SKIP}`;
}
