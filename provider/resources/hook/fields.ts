/**
 * Hook's fields. `type` is fixed at creation (a new one replaces the hook); the rest updates in
 * place. `events` is a set: order and repeats do not matter. Omitted `name` is the service's
 * choice (derived from the settings) and not managed. `settings` are kept as last sent (see
 * settings.ts); `saltRotation` is the provider's own: any change asks the service for a new salt.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { HookRecord } from "../../api/hooks";
import { HOOK_EVENT_IDS, HOOK_TYPES, type HookEvent } from "../../../contract/vocabularies";
import { importIdField } from "../shared/adopt";
import { isUnknown, labelText } from "../shared/check";
import { containsUnknown } from "../shared/diff";
import { fieldOperations, output, takes, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";
import { SETTINGS_BY_TYPE, settingsBody, type HookSettingsArgs } from "./settings";

/** A set: sorted, each once. Left as given while an event is unknown. */
function eventSet(events: string[]): string[] {
  if (events.some(isUnknown)) return events;
  return [...new Set(events)].sort();
}

const table = {
  /** `web`, `slack`, `email`, `hipchat` or `pagerduty`. Changing it replaces the hook. */
  type: { input: z.enum(HOOK_TYPES), required: true, api: "type", onChange: "replace" },
  /** Left out, the service names the hook after its settings and Pulumi leaves the name alone. */
  name: { input: labelText(), unmanagedWhenOmitted: true, api: "name", onChange: "update" },
  /** Whether the hook is told of events; default true. */
  active: { input: z.boolean(), default: true, api: "active", onChange: "update" },
  /** The events it is told of (`job.failed`, `cluster`, …), in any order; at least one. */
  events: {
    program: takes<pulumi.Input<pulumi.Input<HookEvent>[]>>(),
    input: z
      .array(z.enum(HOOK_EVENT_IDS as [HookEvent, ...HookEvent[]]))
      .min(1)
      .transform(eventSet),
    required: true,
    api: "events",
    onChange: "update",
    read: (r) => eventSet(r.events),
  },
  /** The type's settings; stored encrypted in the state, whatever the program passes. */
  settings: {
    program: takes<pulumi.Input<HookSettingsArgs>>(),
    input: z.record(z.string(), z.unknown()),
    required: true,
    api: "settings",
    toApi: settingsBody,
    writeOnly: true,
    onChange: "update",
  },
  /** Any value; when it changes, the service makes a new salt. */
  saltRotation: { program: takes<pulumi.Input<unknown>>(), input: z.json(), onChange: "update" },
  /** The id of an existing hook to manage instead of creating one. */
  importId: importIdField,
  salt: output("The secret the service signs each delivery with; a new `saltRotation` asks for a new one. Kept encrypted."),
} satisfies Record<string, Field<HookRecord>>;

/** A hook's arguments in a program. */
export type HookArgs = ArgsOf<typeof table>;

export const tableOperations = fieldOperations<HookRecord, typeof table>(table, {
  refine(inputs, ctx) {
    // A setting still unknown in a preview (another resource's output) is checked by the update.
    if (isUnknown(inputs.type) || containsUnknown(inputs.settings)) return;
    const parsed = SETTINGS_BY_TYPE[inputs.type].safeParse(inputs.settings);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ["settings", ...issue.path] } as z.core.$ZodRawIssue);
  },
});

export type HookInputs = InputsOf<typeof table>;
export type HookOutputs = OutputsOf<typeof table, HookRecord>;
