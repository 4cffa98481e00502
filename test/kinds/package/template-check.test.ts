/**
 * A template without its connections, or with a flow beside it, refused by each surface's check as
 * the engine calls it and printed as the engine prints it: naming the input and the rule, with no
 * stack trace. That a check's refusal fails the preview before any call is the real engine's to
 * show, once per kind, in test/engine/bad-input-*.test.ts.
 */
import { describe, expect, it } from "vitest";
import { checkAsTheEngineShows } from "../../support/bad-input-check";
import { SURFACES } from "../../support/surfaces";

const CONNECTED = { name: "copied", templateId: 1, sourceConnectionId: 301, destinationConnectionId: 302 };

const CASES = [
  {
    what: "a template without its destination's connection",
    inputs: { name: "unconnected", templateId: 1, sourceConnectionId: 301 },
    field: "destinationConnectionId",
    rule: "is required with `templateId`",
  },
  {
    what: "a template with a flow beside it",
    inputs: { ...CONNECTED, dataFlow: { components: [], edges: [] } },
    field: "dataFlow",
    rule: "must be left out with `templateId`",
  },
];

describe.each(SURFACES)("a Package's template refused by the %s surface's check", (surface) => {
  it.each(CASES)("$what: the failure names $field and the rule", async ({ inputs, field, rule }) => {
    const { output, reasons } = await checkAsTheEngineShows(surface, { kind: "Package", what: "template", inputs, field });
    expect(reasons).toHaveLength(1);
    expect(reasons[0]!.startsWith(`${field} `)).toBe(true);
    expect(reasons[0]).toContain(rule);
    expect(output).toContain(reasons[0]);
    expect(output).not.toMatch(/\n\s+at /);
  });
});
