/**
 * The reference page's Pipeline example previews without a warning: each child it declares passes
 * its kind's check, run as the engine runs it for a Pipeline's child, and says nothing. Its cron's
 * first time is on the Pipeline's fixed first day, in the past, which the user never wrote: a
 * stand-alone schedule given that same start is still warned of.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { PIPELINE_EXAMPLE, PIPELINE_TYPE } from "../../provider/components/pipeline/args";
import { type ChildKind, declarePipeline } from "../../provider/components/pipeline/children";
import type { Reporter } from "../../provider/progress";
import { RESOURCES } from "../../provider/resources/registry";

interface Child {
  kind: ChildKind;
  name: string;
  /** The inputs as the engine hands them to the check: resolved, without the ones left out. */
  inputs: Record<string, unknown>;
}

const resolved = (value: unknown) => new Promise<unknown>((resolve) => (pulumi.output(value) as pulumi.Output<unknown>).apply(resolve));

/** The children the example declares, each with its inputs as its check receives them. */
async function exampleChildren(): Promise<Child[]> {
  const declared: Array<{ kind: ChildKind; name: string; args: Record<string, unknown> }> = [];
  declarePipeline({} as pulumi.Resource, "example", PIPELINE_EXAMPLE as never, (kind, name, args) => {
    declared.push({ kind, name, args });
    return { id: pulumi.output("101"), nextRunAt: pulumi.output(undefined) } as unknown as pulumi.CustomResource;
  });
  return Promise.all(declared.map(async ({ kind, name, args }) => ({ kind, name, inputs: JSON.parse(JSON.stringify(await resolved(args))) })));
}

/** What a check says about a resource of this URN: its failures and every line it reported. */
async function checked(child: Child, urn: string): Promise<{ failures: unknown[]; lines: string[] }> {
  const lines: string[] = [];
  const report: Reporter = { status: (line) => lines.push(`status: ${line}`), note: (line, severity) => lines.push(`${severity}: ${line}`), urn: () => urn };
  const result = await RESOURCES[child.kind].implementation.check({}, child.inputs, report);
  return { failures: "failures" in result ? (result.failures ?? []) : [], lines };
}

const childUrn = (child: Child, type: string) => `urn:pulumi:dev::docs::${PIPELINE_TYPE}$${type}::${child.name}`;

describe("the reference page's Pipeline example", () => {
  it.each([
    ["the plugin", (kind: string) => `etl:index:${kind}`],
    ["the dynamic resources", (kind: string) => `pulumi-nodejs:dynamic/etl:${kind}`],
  ])("declares children whose checks pass and warn of nothing, on %s", async (_surface, typeOf) => {
    const children = await exampleChildren();
    expect(children.map((child) => child.kind)).toEqual(["Package", "Hook", "Schedule"]);
    for (const child of children) expect(await checked(child, childUrn(child, typeOf(child.kind))), child.kind).toEqual({ failures: [], lines: [] });
  });

  it("gives its schedule a start in the past, which a stand-alone schedule given it is warned of", async () => {
    const schedule = (await exampleChildren()).find((child) => child.kind === "Schedule")!;
    expect(Date.parse(String(schedule.inputs.startAt))).toBeLessThan(Date.now());
    const { lines } = await checked(schedule, `urn:pulumi:dev::docs::etl:index:Schedule::${schedule.name}`);
    expect(lines).toEqual([expect.stringMatching(/^warning: startAt \S+ lies in the past/)]);
  });
});
