import { RESOURCES, RESOURCE_KINDS, type ResourceKind } from "../resources/registry";

/** Each kind's example inputs, as its reference page shows them (`{ secretConfig }` marks a secret of the stack's configuration). */
export const RESOURCE_EXAMPLES: Record<ResourceKind, Readonly<Record<string, unknown>>> = Object.fromEntries(
  RESOURCE_KINDS.map((kind) => [kind, RESOURCES[kind].example as Readonly<Record<string, unknown>>]),
) as Record<ResourceKind, Readonly<Record<string, unknown>>>;
