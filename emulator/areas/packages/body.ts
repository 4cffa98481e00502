import { z } from "zod";
import { dataFlowSchema } from "../../../contract/data-flow";
import { label, positiveInteger, stringMap } from "../../fields";
import { FLOW_TYPES } from "./model";

/**
 * The bodies of a package's create and update (facts, "Packages"). `data_flow_json` is taken as
 * an object or as JSON text of one (the facts leave which undocumented), and read by the flow's
 * shape (`contract/data-flow.ts`); rules between its components are a validation's, so a flow
 * that uses a missing connection is accepted, and so is an empty flow (a create without one
 * makes one). `package_version` is taken too, so an export document, of a package without a
 * flow as well, can be posted back as it is.
 */

/** JSON text is read first, so the flow's own rules name its fields whichever way it came. */
const dataFlow = z.preprocess((value, ctx) => {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    ctx.addIssue({ code: "custom", message: "must be a JSON object, or JSON text of one", input: value });
    return z.NEVER;
  }
}, dataFlowSchema);

/** Fields an update may send too. */
const common = {
  name: label().optional(),
  description: z.string().nullish(),
  variables: stringMap().optional(),
  data_flow_json: dataFlow.optional(),
  flow_version: label().optional(),
  package_version: label().optional(),
};

export const createBodySchema = z.strictObject({
  ...common,
  flow_type: z.enum(FLOW_TYPES).optional(),
  source_package_id: positiveInteger().optional(),
  package_template_id: positiveInteger().optional(),
});

/** `flow_type` is fixed at creation; it may be sent, unchanged, as an export document holds it. */
export const updateBodySchema = z.strictObject({ ...common, flow_type: z.enum(FLOW_TYPES).optional() });

export type CreateBody = z.output<typeof createBodySchema>;
