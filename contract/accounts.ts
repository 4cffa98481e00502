/**
 * An account's slug (`account_id`): the segment every `{base_url}` of the account starts with
 * (`{host}/<slug>/…`), chosen at creation or by a rename.
 */
export const MAX_ACCOUNT_SLUG_LENGTH = 63;

/** `api` is the path segment of the API's own routes, so no account is called that. */
export const RESERVED_ACCOUNT_SLUGS: readonly string[] = ["api"];

const SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** What is wrong with a slug, in the words of a rule, or undefined when it is one. */
export function accountSlugProblem(slug: string): string | undefined {
  if (!SLUG.test(slug)) return "must be letters, digits, '.', '_' or '-', not starting with '.', '_' or '-'";
  if (slug.length > MAX_ACCOUNT_SLUG_LENGTH) return `must be at most ${MAX_ACCOUNT_SLUG_LENGTH} characters`;
  if (RESERVED_ACCOUNT_SLUGS.includes(slug.toLowerCase())) return "must not be api: that segment is the API's own";
  return undefined;
}
