import type { ResourceValidationPolicy } from "@pulumi/policy";
import { isKind, named } from "../resources";

/** An admin manages users, keys and billing: only people of the company's own domains. */
export const adminDomain: ResourceValidationPolicy = {
  name: "etl-admin-email-domain",
  description: "A member of role admin has an email address at one of the allowed domains (allowedDomains).",
  enforcementLevel: "mandatory",
  configSchema: { properties: { allowedDomains: { type: "array", items: { type: "string" }, default: [] } } },
  validateResource: (args, report) => {
    if (!isKind(args.type, "Member") || args.props.role !== "admin" || typeof args.props.email !== "string") return;
    const allowed = args.getConfig<{ allowedDomains: string[] }>().allowedDomains.map((d) => d.toLowerCase());
    const email = args.props.email;
    const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
    if (allowed.includes(domain)) return;
    const rule = allowed.length === 0 ? "no domain is allowed yet (allowedDomains is empty)" : `allowed domains: ${allowed.join(", ")}`;
    report(`${named("Member", args.name)}: email "${email}" of an admin is not at an allowed domain; ${rule}.`);
  },
};
