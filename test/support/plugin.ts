/**
 * Programs on the plugin surface: resources registered by their type token `etl:index:<Kind>`,
 * every output of the schema declared, the way a generated SDK's class registers them.
 */
import * as pulumi from "@pulumi/pulumi";
import { packageSchema, typeToken, type ResourceKind } from "pulumi-etl/plugin";

type Schema = { resources: Record<string, { properties: Record<string, unknown> }> };
let schema: Schema | undefined;

function outputNames(kind: ResourceKind): string[] {
  schema ??= packageSchema() as Schema;
  return Object.keys(schema.resources[typeToken(kind)]!.properties);
}

/** The SDK's classes are abstract: a generated SDK subclasses them per kind, as these do generically. */
class EtlResource extends pulumi.CustomResource {}
class EtlProvider extends pulumi.ProviderResource {}

export type PluginResource = pulumi.CustomResource & Record<string, pulumi.Output<any>>;

export function pluginResource(kind: ResourceKind, name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions): PluginResource {
  const declared = Object.fromEntries(outputNames(kind).map((output) => [output, undefined]));
  return new EtlResource(typeToken(kind), name, { ...declared, ...args }, opts) as PluginResource;
}

/** An explicit provider of the plugin: one account's settings. */
export function pluginProvider(
  name: string,
  settings: { apiUrl: string; accountId: string; apiKey: string },
  opts?: pulumi.CustomResourceOptions,
): pulumi.ProviderResource {
  return new EtlProvider("etl", name, { ...settings, apiKey: pulumi.secret(settings.apiKey) }, opts);
}
