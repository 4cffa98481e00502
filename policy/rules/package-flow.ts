import type { ResourceValidationPolicy } from "@pulumi/policy";
import { dataFlowInput, flowErrorsBeforeValidation } from "pulumi-etl";
import { isKind, isRecord, named } from "../resources";

/** What is wrong with a package's flow, by the provider's own rules that need no account. */
function flowProblems(dataFlow: unknown, variables: unknown): string[] {
  const parsed = dataFlowInput.safeParse(dataFlow);
  if (!parsed.success) return parsed.error.issues.map((issue) => issue.message);
  const given = isRecord(variables) ? variables : {};
  return flowErrorsBeforeValidation(parsed.data, given).map((error) => `${error.message} (rule ${error.rule})`);
}

/**
 * A program may turn the provider's own check off (`validate: false`); the platform's rule holds
 * anyway, and it holds in preview, before any package reaches the service.
 */
export const packageFlow: ResourceValidationPolicy = {
  name: "etl-package-flow",
  description: "A package's dataFlow passes the provider's flow rules (shape, wiring, variables).",
  enforcementLevel: "mandatory",
  validateResource: (args, report) => {
    if (!isKind(args.type, "Package") || args.props.dataFlow === undefined) return;
    for (const problem of flowProblems(args.props.dataFlow, args.props.variables)) {
      report(`${named("Package", args.name)}: dataFlow is invalid: ${problem}.`);
    }
  },
};
