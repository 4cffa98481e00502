import { hookRecord } from "../../api/hooks";
import { declareResource } from "../shared/declaration";
import { hookExport } from "./export";
import { tableOperations } from "./fields";
import { hookImplementation } from "./implementation";
import type { RecoverDeclaration } from "../shared/recovery";
import { createdHook } from "./implementation";

/** Recovering hooks: by name and type, made in the deployment's window. */
const hookRecover: RecoverDeclaration = { by: "its name", find: createdHook.find };

export const hookDeclaration = declareResource({
  kind: "Hook",
  description: "Tells a web address, Slack, email, HipChat or PagerDuty of job and cluster events. `settings` and `salt` are kept encrypted.",
  notes: [
    "A web hook for failed jobs, its basic-auth password a secret of the stack, and the salt its deliveries are signed with:",
    "",
    "```ts",
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as etl from "pulumi-etl";',
    "",
    'const failures = new etl.Hook("failed-jobs", {',
    '  type: "web",',
    '  events: ["job.failed"],',
    '  settings: { url: "https://alerts.example.com/etl", basicAuth: { username: "etl", password: new pulumi.Config().requireSecret("hookPassword") } },',
    "});",
    "export const hookSalt = failures.salt; // a secret: verify X-Hook-Signature with it",
    "```",
    "",
    "`settings` and `salt` are stored only encrypted in the state, even when the program passes plain strings. The service never returns secret settings (a basic-auth password, a Slack URL, a HipChat token, a PagerDuty key), so the resource keeps the settings as it last sent them: a change in the program updates the hook, and `refresh` does not see settings changed elsewhere. Web deliveries carry `X-Hook-Signature`, the SHA-1 (hex) of the hook id, the event, the hook's URL and the salt, concatenated.",
  ],
  implementation: hookImplementation,
  recover: hookRecover,
  export: hookExport,
  tableOperations,
  record: hookRecord,
  secrets: ["settings", "salt"],
  example: { type: "web", name: "failed jobs", events: ["job.failed"], settings: { url: "https://alerts.example.com/etl" } },
});

export type { HookArgs, HookOutputs } from "./fields";
export type { HookSettingsArgs, WebHookSettingsArgs } from "./settings";
