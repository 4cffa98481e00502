/**
 * The rules of a hook's settings that both sides check (facts, "Settings per type"), so that a
 * preview refuses what the service would.
 */

/** Where a web or Slack hook may post: http or https, credentials never in the URL itself. */
export function isHookUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

export const HOOK_URL_RULE = "must be an http or https URL without user information";

/** One address of an email hook; the service takes them as one comma-separated string. */
export const EMAIL_ADDRESS = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;
