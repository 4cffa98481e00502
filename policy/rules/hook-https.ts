import type { ResourceValidationPolicy } from "@pulumi/policy";
import { isKind, isRecord, named } from "../resources";

/** The URL a hook definition sends to, if it names one. */
function urlOf(settings: unknown): string | undefined {
  return isRecord(settings) && typeof settings.url === "string" ? settings.url : undefined;
}

function plainUrl(url: string | undefined): boolean {
  return url !== undefined && !/^https:\/\//i.test(url);
}

/** Notices carry job and account details: they go out encrypted or not at all. */
export const hookHttps: ResourceValidationPolicy = {
  name: "etl-hook-https",
  description: "A hook sends its notices only to https URLs.",
  enforcementLevel: "mandatory",
  validateResource: (args, report) => {
    if (isKind(args.type, "Hook")) {
      const url = urlOf(args.props.settings);
      if (plainUrl(url)) report(`${named("Hook", args.name)}: settings.url must be an https URL, got "${url}".`);
    }
    if (isKind(args.type, "Pipeline") && isRecord(args.props.failureAlert)) {
      const url = urlOf(args.props.failureAlert.settings);
      if (plainUrl(url)) report(`${named("Pipeline", args.name)}: failureAlert.settings.url must be an https URL, got "${url}".`);
    }
  },
};
