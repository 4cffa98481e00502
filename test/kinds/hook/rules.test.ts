/** Hook's check and bodies: settings typed per hook type, events as a set, secrets never echoed. */
import { describe, expect, it } from "vitest";
import { tableOperations, type HookInputs } from "../../../provider/resources/hook/fields";
import { hookImplementation } from "../../../provider/resources/hook/implementation";
import { expectedFailure } from "../check-failure";

const check = (news: Record<string, unknown>) => hookImplementation.check({}, news);
const WEB = { type: "web", events: ["job.failed"], settings: { url: "https://hooks.example.com/etl" } };

describe("Hook check", () => {
  it("reads events as a set, sorted, each once", async () => {
    expect(await check({ ...WEB, events: ["job.failed", "cluster", "job.failed"] })).toMatchObject({ ok: true, inputs: { events: ["cluster", "job.failed"] } });
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ ...WEB, type: "sms" }, "type", 'type must be one of "web", "slack", "email", "hipchat", "pagerduty"'],
    [{ ...WEB, events: [] }, "events", "events must have at least 1 item(s)"],
    [{ ...WEB, events: ["job.finished"] }, "events.0", "events.0 must be one of"],
    [{ ...WEB, settings: { url: "ftp://x" } }, "settings.url", "settings.url must be an http or https URL without user information"],
    [{ ...WEB, settings: { url: "https:///x" } }, "settings.url", "settings.url must name a host after the scheme (https://host/path)"],
    [{ ...WEB, settings: { url: "http:/x.example/etl" } }, "settings.url", "settings.url must name a host after the scheme"],
    [{ type: "slack", events: ["job"], settings: { url: "https:///services/T0/B0" } }, "settings.url", "settings.url must name a host after the scheme"],
    [{ ...WEB, settings: { url: "https://x.example", room: "ops" } }, "settings.room", "settings.room is not a field of settings"],
    [
      { ...WEB, settings: { url: "https://x.example", basicAuth: { username: "a:b", password: "p" } } },
      "settings.basicAuth.username",
      "must not contain a colon",
    ],
    [{ type: "email", events: ["job"], settings: { emails: ["not-an-address"] } }, "settings.emails.0", "settings.emails.0 must be an email address"],
    [{ type: "pagerduty", events: ["job"], settings: { pdAccount: "acme", serviceName: "etl" } }, "settings.serviceKey", "settings.serviceKey is required"],
  ])("fails %j on %s", async (inputs, property, reason) => {
    const result = await check(inputs);
    expect(!result.ok && result.failures).toContainEqual(expectedFailure(inputs, property, reason));
  });

  it("refuses a URL with no host with that one reason, and takes one that names its host", async () => {
    const noHost = await check({ ...WEB, settings: { url: "https:///x" } });
    expect(!noHost.ok && noHost.failures.map((f) => f.reason)).toEqual(["settings.url must name a host after the scheme (https://host/path)"]);
    const notUrl = await check({ ...WEB, settings: { url: "hooks.example.com/etl" } });
    expect(!notUrl.ok && notUrl.failures.map((f) => f.reason)).toEqual(["settings.url must be an http or https URL without user information"]);
    expect(await check({ ...WEB, settings: { url: "https://x/etl" } })).toMatchObject({ ok: true });
  });

  it("never repeats a secret setting in a failure", async () => {
    const result = await check({ type: "hipchat", events: ["job"], settings: { room: "ops", authToken: 42, extra: "tok-SECRET" } });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.failures.map((f) => f.reason)).toEqual([
      "settings.authToken must be a string, got a number",
      "settings.extra is not a field of settings",
    ]);
    expect(JSON.stringify(!result.ok && result.failures)).not.toContain("tok-SECRET");
  });
});

describe("Hook bodies", () => {
  it("sends basic authentication as the service takes it, and addresses as one string", () => {
    const web = tableOperations.inputSchema.parse({
      ...WEB,
      settings: { url: "https://x.example", basicAuth: { username: "etl", password: "pw" } },
    }) as HookInputs;
    expect(tableOperations.createBody(web)).toMatchObject({
      settings: { url: "https://x.example", basic_auth: true, basic_auth_data: Buffer.from("etl:pw").toString("base64") },
    });
    const email = tableOperations.inputSchema.parse({ type: "email", events: ["job"], settings: { emails: ["a@x.io", "b@x.io"] } }) as HookInputs;
    expect(tableOperations.createBody(email)).toMatchObject({ settings: { emails: "a@x.io,b@x.io" } });
  });
});
