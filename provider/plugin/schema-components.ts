/**
 * The components in the plugin's schema (`isComponent`): served by `Construct`, typed in every
 * SDK like a resource. Their inputs and what each is come from the component's one description
 * of them (`PIPELINE_INPUTS`).
 */
import type { z } from "zod";
import { PIPELINE_INPUTS, PIPELINE_OUTPUTS, PIPELINE_TYPE } from "../components/pipeline/args";
import { capitalized, fromZod, type Json, type TypeSpecs, withDescription } from "./schema-types";

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

function descriptionOf(schema: z.ZodType): string | undefined {
  return (schema.meta() as { description?: string } | undefined)?.description;
}

export function pipelineSpec(types: TypeSpecs): Json {
  const entries = Object.entries(PIPELINE_INPUTS) as Array<[string, z.ZodType]>;
  const inputProperties = Object.fromEntries(
    entries.map(([name, schema]) => [name, { ...fromZod(schema, "input", `Pipeline${capitalized(name)}`, types), ...withDescription(descriptionOf(schema)) }]),
  );
  // A hook's settings carry its credentials: every SDK keeps them secret, as `Hook.settings`.
  const alert = types[`${PIPELINE_TYPE}FailureAlert`] as { properties: Record<string, Json> };
  alert.properties.settings = { ...alert.properties.settings, secret: true };
  const properties = Object.fromEntries(Object.entries(PIPELINE_OUTPUTS).map(([name, description]) => [name, { type: "string", description }]));
  return {
    isComponent: true,
    description:
      "A team's ETL set-up in one declaration: a package with its flow, run on a schedule (cron or interval) on a cluster of a chosen size, a hook that alerts on failed runs, and a delivery when asked for. Each is an ordinary resource under the component.",
    inputProperties,
    requiredInputs: entries.filter(([, schema]) => !isOptional(schema)).map(([name]) => name),
    properties,
    required: ["packageId", "scheduleId"],
  };
}
