/**
 * Package's fields. `flowType` is fixed at creation (a new one replaces the package); the rest
 * updates in place, each update a new version on the service. `dataFlow` is compared in its
 * canonical form (flow.ts); left out, the package has none (a create sends no `data_flow_json`).
 * `validate` is the provider's own: whether `up` validates the package after each create and
 * update and fails when the validation does.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { DataFlow } from "../../../contract/data-flow";
import type { PackageRecord, PackageValidationRecord } from "../../api/packages";
import { importIdField } from "../shared/adopt";
import { isUnknown, labelText, objectIdInput } from "../shared/check";
import { containsUnknown } from "../shared/diff";
import { fieldOperations, takes, output, OUTPUT, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";
import { dataFlowInput, EMPTY_FLOW, flowErrorsBeforeValidation, flowOfService } from "./flow";
import { fromTemplate, templateConnectionOf, templateRuleIssues } from "./template";

export const FLOW_TYPES = ["dataflow", "workflow"] as const;

/** What the resource reads of a package: the record, its flow (from the export) and its latest validation. */
export type PackageState = PackageRecord & { data_flow_json?: unknown; validation?: Pick<PackageValidationRecord, "status" | "errors"> };

/** One broken rule of the last validation. */
export interface PackageValidationError {
  message: string;
  component?: string;
  rule?: string;
}

function validationErrorsOf(record: PackageState): PackageValidationError[] | undefined {
  return record.validation?.errors.map(({ message, component, rule }) => ({ message, ...(component ? { component } : {}), ...(rule ? { rule } : {}) }));
}

const table = {
  /** 1 to 255 characters. */
  name: { input: labelText(), required: true, api: "name", onChange: "update" },
  /** Left out, the package has no description (with `templateId`, the template's). */
  description: { input: z.string(), default: "", api: "description", onChange: "update", unmanagedWhenOmittedIf: fromTemplate },
  /** Package-level defaults of the variables its flow uses as `${name}`. */
  variables: {
    program: takes<pulumi.Input<Record<string, pulumi.Input<string>>>>(),
    input: z.record(z.string(), z.string()),
    default: {},
    api: "variables",
    onChange: "update",
    unmanagedWhenOmittedIf: fromTemplate,
  },
  /** `dataflow` (the default) or `workflow`. Changing it replaces the package. */
  flowType: {
    program: takes<pulumi.Input<(typeof FLOW_TYPES)[number]>>(),
    input: z.enum(FLOW_TYPES),
    default: "dataflow",
    sendDefault: true,
    api: "flow_type",
    onChange: "replace",
    read: (r) => r.flow_type ?? "dataflow",
  },
  /**
   * The flow: `{ components, edges }`, or a package's export document (`getPackageExport`, or a
   * file kept in the repository), as an object or as JSON text. Compared by meaning. Left out
   * (or with no components), the package has no flow, as the web application makes one first.
   * Left out with `templateId`, the flow is the template's.
   */
  dataFlow: {
    program: takes<pulumi.Input<unknown>>(),
    description: "The package's flow, in canonical form; `{ components: [], edges: [] }` for a package without a flow.",
    input: dataFlowInput,
    default: EMPTY_FLOW,
    api: "data_flow_json",
    onChange: "update",
    unmanagedWhenOmittedIf: fromTemplate,
    read: (r): DataFlow | undefined => flowOfService(r.data_flow_json),
    // The service takes a flow whose connection is missing, and leaves it to the validation.
    refersTo: { to: "connection", at: "components.*.connection.id" },
  },
  /**
   * A template to start from (`getPackageTemplates`), instead of `dataFlow`: the package is made
   * with the template's flow, description and variables, and what the program gives besides wins.
   * The flow is then the package's own: only its connections are compared. Changing it replaces the package.
   */
  templateId: {
    input: z.number().int().positive(),
    api: "package_template_id",
    writeOnly: true,
    onChange: "replace",
    refersTo: { to: "packageTemplate", checkedByService: true },
  },
  /** With `templateId`: the connection every source of the template's flow reads, by its id. */
  sourceConnectionId: {
    program: takes<pulumi.Input<number | string>>(),
    input: objectIdInput(301),
    onChange: "update",
    current: (outputs) => templateConnectionOf(outputs, "source"),
    // The service takes a flow whose connection is missing, and leaves it to the validation.
    refersTo: { to: "connection" },
  },
  /** With `templateId`: the connection every destination of the template's flow writes, by its id. */
  destinationConnectionId: {
    program: takes<pulumi.Input<number | string>>(),
    input: objectIdInput(302),
    onChange: "update",
    current: (outputs) => templateConnectionOf(outputs, "destination"),
    refersTo: { to: "connection" },
  },
  /**
   * A hook told of this package's failed jobs, by its id (a `Pipeline`'s `alertHookId`): `up`
   * reads it when the package is made and when the id changes, and fails if the account has no
   * such hook. A hook is told of the events of every job of the account, so the id is recorded, never sent.
   */
  alertHookId: { program: takes<pulumi.Input<number | string>>(), input: objectIdInput(7), onChange: "update", refersTo: { to: "hook" } },
  /**
   * Whether `up` validates the package after each change and fails when it is invalid; default
   * true. A package without a flow is never validated: the service fails it for having no components.
   */
  validate: { input: z.boolean(), default: true, onChange: "update" },
  /** The id of an existing package to manage instead of creating one. */
  importId: importIdField,
  status: output("`active`, or `archived` once destroyed (the service's delete archives)."),
  version: output("The service's version of the package: 1 when made, one more for each update."),
  flowVersion: output("The version of the designer the flow was made with."),
  packageVersion: output("The package's own version label."),
  ownerId: OUTPUT,
  createdAt: OUTPUT,
  updatedAt: OUTPUT,
  htmlUrl: OUTPUT,
  validationStatus: { description: "The last validation's status: `completed`, `failed` or `running`.", read: (r) => r.validation?.status },
  validationErrors: { description: "Each rule the flow broke at the last validation, with the component at fault.", read: validationErrorsOf },
} satisfies Record<string, Field<PackageState>>;

/** What a program passes. */
export type PackageArgs = ArgsOf<typeof table>;

export const tableOperations = fieldOperations<PackageState, typeof table>(table, {
  refine(inputs, ctx) {
    for (const issue of templateRuleIssues(inputs)) ctx.addIssue({ code: "custom", ...issue });
    // The account-free rules are checked at preview; a flow not yet known is checked by the update.
    if (
      inputs.validate === false ||
      inputs.dataFlow === undefined ||
      isUnknown(inputs.dataFlow) ||
      containsUnknown(inputs.dataFlow) ||
      containsUnknown(inputs.variables)
    )
      return;
    for (const error of flowErrorsBeforeValidation(inputs.dataFlow, inputs.variables ?? {})) {
      ctx.addIssue({ code: "custom", path: ["dataFlow"], message: `is invalid: ${error.message} (rule ${error.rule})` });
    }
  },
});

export type PackageInputs = InputsOf<typeof table>;
export type PackageOutputs = OutputsOf<typeof table, PackageState>;
