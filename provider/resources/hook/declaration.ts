import { hookRecord } from "../../api/hooks";
import { declareResource } from "../shared/declaration";
import { hookExport } from "./export";
import { fields } from "./fields";
import { hookProvider } from "./provider";
import { hookRecover } from "./recover";

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
