/** Hook in the tests: notifications of the account's events by email, web request or another service. */
import {
  badInput,
  type KindTests,
  NONE_MADE_BY_THE_SERVICE,
  presentByName,
  referenceExample,
  secretBadInput,
  soakName,
  tableOfTheAccount,
} from "../kind-tests";

const WEB_HOOK = { type: "web", events: ["job.failed"], settings: { url: "https://alerts.example.com/etl" } };

const rows = tableOfTheAccount("hooks");
const name = soakName("hook");

export const hook: KindTests = {
  rows,
  made: { rows, id: (row) => String(row.id) },
  exampleInputs: () => referenceExample("Hook"),
  replacingChange: { type: "slack" },
  oldObject: "deleted",
  forcedReplacement: "new object",
  soak: {
    count: 1,
    name,
    args: (i) => ({ type: "email", name: name(i), events: ["job.failed"], settings: { emails: ["soak@example.com"] } }),
    object: presentByName,
    leftover: (r) => `hook ${r.id} (${r.name}) still exists`,
    serviceMade: NONE_MADE_BY_THE_SERVICE,
  },
  badInputs: [
    secretBadInput(
      "secret settings with a missing key",
      "settings.serviceKey",
      { type: "pagerduty", events: ["job"], settings: { pdAccount: "acme-SECRET-pd", serviceName: "etl" } },
      "settings",
    ),
    badInput("unknown type", "type", { ...WEB_HOOK, type: "sms" }),
    badInput("no events", "events", { ...WEB_HOOK, events: [] }),
    badInput("unknown event", "events.0", { ...WEB_HOOK, events: ["job.finished"] }),
    badInput("url that is not http", "settings.url", { ...WEB_HOOK, settings: { url: "ftp://alerts.example.com" } }),
    badInput("a setting of another type", "settings.serviceKey", { ...WEB_HOOK, settings: { url: "https://a.example.com", serviceKey: "k" } }),
    badInput("email that is not an address", "settings.emails.0", { type: "email", events: ["job"], settings: { emails: ["ops"] } }),
  ],
};
