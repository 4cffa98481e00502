/**
 * A 401 on an account's path has causes the service does not tell apart: a wrong key, a key whose
 * user is not a member of the account, and an account renamed or deleted outside Pulumi. The
 * account listing at the host root, which takes the key alone, says which: asked once per
 * client, and only after a 401, so a working stack never pays for it.
 */
import { SETTINGS } from "../../config";
import { AuthenticationError } from "../errors";
import { withCause, type ApiRequest, type RequestFn } from "../http";

/** The first page of the key user's accounts is enough to name them. */
const LISTING: ApiRequest = { method: "GET", path: "/accounts", atHostRoot: true, query: { limit: 100 } };

async function diagnose(request: RequestFn, accountId: string): Promise<string | undefined> {
  try {
    const { body } = await request<Array<{ account_id?: unknown }>>(LISTING);
    const slugs = (Array.isArray(body) ? body : []).map((account) => String(account.account_id));
    if (slugs.includes(accountId)) return undefined;
    return (
      `the API key is valid, but ${SETTINGS.accountId.key} "${accountId}" is not among the accounts its user belongs to (${slugs.join(", ")}): ` +
      "the account was renamed or deleted outside Pulumi, or the user is no longer a member. " +
      `If it was renamed, point ${SETTINGS.accountId.key} at its new slug: a provider given an Account resource's slug follows it once ` +
      "`pulumi refresh` has read the new slug and `pulumi up` has passed it on"
    );
  } catch (error) {
    if (!(error instanceof AuthenticationError)) return undefined;
    return `the API key itself is refused (${SETTINGS.apiKey.key} or ${SETTINGS.apiKey.env}): it is wrong or revoked, or its user belongs to no account`;
  }
}

export function withCredentialsDiagnosis(request: RequestFn, accountId: string): RequestFn {
  let diagnosis: Promise<string | undefined> | undefined;
  return async <T>(req: ApiRequest) => {
    try {
      return await request<T>(req);
    } catch (error) {
      if (!(error instanceof AuthenticationError) || req.atHostRoot === true) throw error;
      diagnosis ??= diagnose(request, accountId);
      const said = await diagnosis;
      if (said === undefined) throw error;
      const { status, request: summary, serviceMessage, responseBody, responseHeaders } = error;
      throw withCause(
        new AuthenticationError({ status, request: summary, serviceMessage: `${serviceMessage}; ${said}`, responseBody, responseHeaders }),
        error,
      );
    }
  };
}
