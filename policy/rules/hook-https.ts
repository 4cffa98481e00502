import type { ResourceValidationPolicy } from "@pulumi/policy";
import { fromPipeline, isKind, isRecord, named } from "../resources";

/** The URL a hook definition sends to, if it names one. */
function urlOf(settings: unknown): string | undefined {
  return isRecord(settings) && typeof settings.url === "string" ? settings.url : undefined;
}

/**
 * What is wrong with a hook's URL, if anything: not https, or no host written after the scheme
 * (`https:///x`, which URL parsers read as the host `x`).
 */
function problemOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  if (!/^https:/i.test(url)) return `must be an https URL, got "${url}"`;
  if (!/^https:\/\/[^/\\?#@\s]/i.test(url)) return `must name a host after https://, got "${url}"`;
  return undefined;
}

/**
 * Notices carry job and account details: they go out encrypted or not at all. A Pipeline's
 * failure alert is checked on the Hook the Pipeline makes of it, once, whether or not the
 * component's own inputs reach the pack.
 */
export const hookHttps: ResourceValidationPolicy = {
  name: "etl-hook-https",
  description: "A hook sends its notices only to https URLs that name a host.",
  enforcementLevel: "mandatory",
  validateResource: (args, report) => {
    if (!isKind(args.type, "Hook")) return;
    const problem = problemOf(urlOf(args.props.settings));
    if (problem !== undefined) report(`${named("Hook", args.name)}: settings.url ${problem}.${fromPipeline(args, "alert", "failureAlert.settings.url")}`);
  },
};
