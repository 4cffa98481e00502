import { hookRecord } from "../../api/hooks";
import { declareResource } from "../shared/declaration";
import { hookExport } from "./export";
import { fields } from "./fields";
import { hookProvider } from "./provider";
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedHook } from "./provider";
import { resourceClass } from "../shared/resource-class";
import type { HookArgs, HookOutputs } from "./fields";

/** Recovering hooks: by name and type, made in the deployment's window. */
const hookRecover: RecoverDeclaration = { by: "its name", find: findCreatedHook };

export const hookResource = declareResource({
  kind: "Hook",
  description: "Tells a web address, Slack, email, HipChat or PagerDuty of job and cluster events. `settings` and `salt` are kept encrypted.",
  provider: hookProvider,
  recover: hookRecover,
  export: hookExport,
  fields,
  record: hookRecord,
  secrets: ["settings", "salt"],
  example: { type: "web", name: "failed jobs", events: ["job.failed"], settings: { url: "https://alerts.example.com/etl" } },
});

export type { HookArgs, HookOutputs } from "./fields";
export type { HookSettingsArgs, WebHookSettingsArgs } from "./settings";

/**
 * Tells a web address, Slack, email, HipChat or PagerDuty of job and cluster events. `settings`
 * (which hold passwords and keys) and `salt` (which signs web deliveries) are stored encrypted.
 */
export const Hook = resourceClass<HookArgs, HookOutputs>(hookResource);
export type Hook = InstanceType<typeof Hook>;
