/**
 * `etl-coverage`'s pure parts: the ignore file's rules, each object's status from what the
 * service and the stacks hold, which resources of a state count for which account, the JSON
 * report's shape, and the HTML page holding nothing it would fetch.
 */
import { describe, expect, it } from "vitest";
import { htmlPage } from "../../provider/coverage/html";
import { parseIgnoreRules, ruleMatching } from "../../provider/coverage/ignore";
import { coverageOf, needsAction, type Claim, type ServiceObject } from "../../provider/coverage/report";
import { COVERAGE_KINDS } from "../../provider/coverage/scan";
import { claimsOf, type StackState } from "../../provider/coverage/states";
import { markdown, terminalTable } from "../../provider/coverage/text";
import type { StateResource } from "../../provider/recover/state";

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };
const ACCOUNT = { accountId: "acme", apiUrl: "http://127.0.0.1:4010" };

const object = (kind: string, id: string, name: string, extra: Partial<ServiceObject> = {}): ServiceObject => ({ kind, id, name, ...extra });
const claim = (kind: string, id: string, stack: string, name?: string): Claim => ({
  kind,
  id,
  stack,
  urn: `urn:pulumi:${stack}::p::etl:index:${kind}::${name ?? id}`,
  ...(name === undefined ? {} : { name }),
});

describe("the ignore file", () => {
  const rules = parseIgnoreRules(
    ["# made by the analysts", "", "Connection:301", "  Package:*  ", "Schedule:name=tmp-*", "Hook:name=alert ?"].join("\n"),
    COVERAGE_KINDS,
    ".etl-coverage-ignore",
  );

  it("reads Kind:id, Kind:* and Kind:name=<glob>, skipping comments and blank lines, each rule with its line", () => {
    expect(rules.map((rule) => [rule.kind, rule.line])).toEqual([
      ["Connection", 3],
      ["Package", 4],
      ["Schedule", 5],
      ["Hook", 6],
    ]);
  });

  it("matches an id exactly, every object of a kind, and names by glob over the whole name", () => {
    const matches = (kind: string, id: string, name: string) => ruleMatching(rules, { kind, id, name })?.line;
    expect(matches("Connection", "301", "warehouse")).toBe(3);
    expect(matches("Connection", "3010", "warehouse")).toBeUndefined();
    expect(matches("Package", "7", "anything")).toBe(4);
    expect(matches("Schedule", "1", "tmp-orders")).toBe(5);
    expect(matches("Schedule", "1", "nightly tmp-orders")).toBeUndefined();
    expect(matches("Hook", "1", "alert 7")).toBe(6);
    expect(matches("Hook", "1", "alert 77")).toBeUndefined();
    expect(matches("Hook", "1", "alert.7")).toBeUndefined();
  });

  it.each([
    ["Conection:1", /^ignore:1: "Conection" is not a kind; the kinds are PublicKey, .*ClusterWatcher$/],
    ["Connection", /^ignore:1: "Connection" is not a rule: a rule is Kind:id, Kind:\* or Kind:name=<glob>$/],
    ["Connection:name=", /^ignore:1: Connection:name= needs a name or a glob after "="$/],
    ["Connection:3 01", /^ignore:1: "Connection:3 01" is not a rule/],
  ])("refuses %j naming the file, the line and the rule", (text, message) => {
    expect(() => parseIgnoreRules(text, COVERAGE_KINDS, "ignore")).toThrow(message);
  });
});

describe("each object's status", () => {
  const objects = [
    object("Connection", "301", "warehouse"),
    object("Connection", "302", "raw"),
    object("Connection", "303", "shared"),
    object("Package", "10", "by hand"),
    object("Package", "11", "a delivery's", { onlyIfHeld: true }),
    object("Member", "1", "owner", { onlyIfHeld: true }),
    object("Member", "2", "lee", { onlyIfHeld: true }),
  ];
  const claims = [
    claim("Connection", "301", "a/prod"),
    claim("Connection", "303", "a/prod"),
    claim("Connection", "303", "b/prod"),
    claim("Connection", "303", "b/prod"),
    claim("Hook", "99", "b/prod", "gone"),
    claim("Member", "2", "a/prod"),
  ];
  const report = coverageOf("acme", objects, claims, [], COVERAGE_KINDS);
  const statusOf = (kind: string, id: string) => report.objects.find((o) => o.kind === kind && o.id === id)?.status;

  it("managed by one resource, unmanaged by none, conflicting by two (the same urn read twice is one), missing when only a state has it", () => {
    expect(report.objects.map((o) => [o.kind, o.id, o.status, o.stacks])).toEqual([
      ["Hook", "99", "missing", ["b/prod"]],
      ["Member", "2", "managed", ["a/prod"]],
      ["Connection", "301", "managed", ["a/prod"]],
      ["Connection", "302", "unmanaged", []],
      ["Connection", "303", "conflicting", ["a/prod", "b/prod"]],
      ["Package", "10", "unmanaged", []],
    ]);
    expect(report.objects.find((o) => o.id === "99")?.name).toBe("gone");
  });

  it("leaves out what comes with another object or cannot be declared unless a stack holds it", () => {
    expect(statusOf("Package", "11")).toBeUndefined();
    expect(statusOf("Member", "1")).toBeUndefined();
    expect(statusOf("Member", "2")).toBe("managed");
  });

  it("counts, and the coverage is the managed share of what the service holds, ignored objects aside", () => {
    expect(report.summary).toEqual({ managed: 2, unmanaged: 2, missing: 1, conflicting: 1, ignored: 0, coverage: 40 });
    expect(needsAction(report.summary)).toBe(true);
  });

  it("an ignore rule turns unmanaged, missing and conflicting into ignored, never managed", () => {
    const rules = parseIgnoreRules("Connection:*\nHook:99\nPackage:name=by *", COVERAGE_KINDS, "f");
    const ignored = coverageOf("acme", objects, claims, rules, COVERAGE_KINDS);
    expect(ignored.objects.map((o) => `${o.kind}:${o.id}:${o.status}`)).toEqual([
      "Hook:99:ignored",
      "Member:2:managed",
      "Connection:301:managed",
      "Connection:302:ignored",
      "Connection:303:ignored",
      "Package:10:ignored",
    ]);
    expect(ignored.summary).toEqual({ managed: 2, unmanaged: 0, missing: 0, conflicting: 0, ignored: 4, coverage: 100 });
    expect(needsAction(ignored.summary)).toBe(false);
  });

  it("is JSON of exactly accountId, summary and objects, each object with kind, id, name, status, stacks and urns", () => {
    const json = JSON.parse(JSON.stringify(report));
    expect(Object.keys(json)).toEqual(["accountId", "summary", "objects"]);
    expect(Object.keys(json.summary)).toEqual(["managed", "unmanaged", "missing", "conflicting", "ignored", "coverage"]);
    for (const item of json.objects) expect(Object.keys(item)).toEqual(["kind", "id", "name", "status", "stacks", "urns"]);
    expect(json.objects.find((o: { id: string }) => o.id === "303").urns).toEqual([
      "urn:pulumi:a/prod::p::etl:index:Connection::303",
      "urn:pulumi:b/prod::p::etl:index:Connection::303",
    ]);
  });

  it("an account with nothing in it is covered in full", () => {
    expect(coverageOf("acme", [], [], [], COVERAGE_KINDS).summary.coverage).toBe(100);
  });

  it("the terminal table counts by kind and lists what to act on, the most urgent first; Markdown escapes names", () => {
    const table = terminalTable(report);
    expect(table.split("\n")[0]).toBe("account acme: coverage 40% (2 managed, 2 unmanaged, 1 missing, 1 conflicting, 0 ignored)");
    expect(table).toMatch(/^Connection +1 +1 +0 +1 +0$/m);
    expect(table).toMatch(/^total +2 +2 +1 +1 +0$/m);
    const rows = table.split("\n").filter((line) => /^(conflicting|missing|unmanaged) /.test(line));
    expect(rows.map((line) => line.split(/ +/).slice(0, 3).join(" "))).toEqual([
      "conflicting Connection 303",
      "missing Hook 99",
      "unmanaged Connection 302",
      "unmanaged Package 10",
    ]);
    const named = coverageOf("acme", [object("Connection", "1", "a|b <i>")], [], [], COVERAGE_KINDS);
    expect(markdown(named)).toContain("| Connection | 1 | a\\|b \\<i\\> |");
  });
});

describe("the resources of a state that count for the account", () => {
  const resource = (type: string, name: string, fields: Partial<StateResource> = {}): StateResource => ({
    urn: `urn:pulumi:prod::shop::${type}::${name}`,
    type,
    custom: true,
    ...fields,
  });
  const providerRef = (name: string) => `urn:pulumi:prod::shop::pulumi:providers:etl::${name}::6b0c`;
  const state = (resources: StateResource[], account: StackState["account"] = ACCOUNT): StackState => ({
    label: "shop/prod",
    deployment: { version: 3, deployment: { resources } },
    account,
  });

  it("takes each resource's account from its provider, the stack's for dynamic resources and default providers", () => {
    const resources = [
      resource("pulumi:providers:etl", "default_0_1_0", { id: "6b0c", inputs: { accountId: "acme", apiUrl: "http://127.0.0.1:4010/" } }),
      resource("pulumi:providers:etl", "staging", { id: "6b0c", inputs: { accountId: "acme-staging", apiUrl: ACCOUNT.apiUrl } }),
      resource("pulumi:providers:etl", "other-host", { id: "6b0c", inputs: { accountId: "acme", apiUrl: "https://api.example.com" } }),
      resource("pulumi:providers:etl", "hidden", { id: "6b0c", inputs: { accountId: SECRET } }),
      resource("etl:index:Connection", "by-default", { id: "1", provider: providerRef("default_0_1_0"), outputs: { name: "warehouse" } }),
      resource("etl:index:Connection", "in-staging", { id: "2", provider: providerRef("staging") }),
      resource("etl:index:Connection", "elsewhere", { id: "3", provider: providerRef("other-host") }),
      resource("etl:index:Connection", "secret-account", { id: "4", provider: providerRef("hidden") }),
      resource("pulumi-nodejs:dynamic/etl:Package", "dynamic", { id: "5" }),
      resource("etl:index:Pipeline", "rollup", { custom: false }),
      resource("etl:index:Schedule", "rollup-schedule", {
        id: "6",
        provider: providerRef("default_0_1_0"),
        parent: "urn:pulumi:prod::shop::etl:index:Pipeline::rollup",
      }),
      resource("etl:index:Connection", "read-only", { id: "7", external: true, provider: providerRef("default_0_1_0") }),
      resource("etl:index:Connection", "replaced", { id: "8", delete: true, provider: providerRef("default_0_1_0") }),
      resource("etl:index:JobRun", "run", { id: "9", provider: providerRef("default_0_1_0") }),
      resource("etl:index:UserSettings", "mine", { id: "70", provider: providerRef("default_0_1_0") }),
      resource("etl:index:UserSettings", "theirs", { id: "71", provider: providerRef("default_0_1_0") }),
      resource("etl:index:ClusterWatcher", "on-call", { id: "201", provider: providerRef("default_0_1_0"), outputs: { userId: 71 } }),
    ];
    const found = claimsOf(state(resources), ACCOUNT, "70");
    expect(found.claims.map((c) => `${c.kind}:${c.id}`)).toEqual(["Connection:1", "Package:5", "Schedule:6", "UserSettings:70"]);
    expect(found.claims[0]).toEqual({
      kind: "Connection",
      id: "1",
      name: "warehouse",
      stack: "shop/prod",
      urn: "urn:pulumi:prod::shop::etl:index:Connection::by-default",
    });
    expect(found.unreadable).toBe(1);
  });

  it("a dynamic resource of a stack set up for another account is not the account's", () => {
    const resources = [resource("pulumi-nodejs:dynamic/etl:Package", "dynamic", { id: "5" })];
    expect(claimsOf(state(resources, { accountId: "acme-staging" }), ACCOUNT, undefined).claims).toEqual([]);
  });
});

describe("the HTML page", () => {
  const report = coverageOf(
    "acme <&>",
    [object("Connection", "1", "<script>alert(1)</script>"), object("Package", "2", "p")],
    [claim("Package", "2", "a/prod")],
    [],
    COVERAGE_KINDS,
  );
  const page = htmlPage(report, new Date("2030-01-01T00:00:00Z"));

  it("holds its style and chart inline and fetches nothing: no script, no external address", () => {
    expect(page).not.toMatch(/<script|<link|@import|url\(|src=/i);
    expect(page.match(/https?:\/\/[^"\s]*/g)).toEqual(["http://www.w3.org/2000/svg"]);
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page).toContain("ETL account acme &lt;&amp;&gt;: coverage 50%");
  });

  it("draws one bar per kind, a part per status it has, and lists the objects by status", () => {
    expect(page.match(/<title>[^<]*<\/title><\/rect>/g)).toEqual(["<title>Connection: 1 unmanaged</title></rect>", "<title>Package: 1 managed</title></rect>"]);
    expect(page).toMatch(/<summary>.*1 unmanaged<\/summary>/);
    expect(page).toMatch(/<summary>.*1 managed<\/summary>/);
    expect(page).toContain("<td>urn:pulumi:a/prod::p::etl:index:Package::2</td>".replace("<td>", '<td class="urn">'));
  });
});
