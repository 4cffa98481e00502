/** The data-flow rules a package validation checks, on flows made up to break each one. */
import { describe, expect, it } from "vitest";
import type { ConnectionKind } from "../../contract/connection-types";
import { dataFlowErrors, destinationsOf, type DataFlow } from "../../contract/data-flow";

const KINDS: Record<number, ConnectionKind> = { 301: "database", 302: "cloud_storage", 306: "crm_platform" };
const kindOf = (id: number) => KINDS[id];

const valid: DataFlow = {
  components: [
    { name: "orders", type: "source", connection: { id: 301 }, table: "orders" },
    { name: "accounts", type: "source", connection: { id: 306 }, path: "accounts" },
    { name: "matched", type: "join", condition: "orders.account_id = accounts.id" },
    { name: "recent", type: "filter", condition: "created_at > '${since}'" },
    { name: "warehouse", type: "destination", connection: { id: 301 }, table: "recent_orders" },
    { name: "bucket", type: "destination", connection: { id: 302 }, path: "exports/orders" },
  ],
  edges: [
    { from: "orders", to: "matched" },
    { from: "accounts", to: "matched" },
    { from: "matched", to: "recent" },
    { from: "recent", to: "warehouse" },
    { from: "matched", to: "bucket" },
  ],
};

const rules = (flow: DataFlow, variables: Record<string, string> = { since: "2026-01-01" }) =>
  dataFlowErrors(flow, variables, kindOf).map((e) => `${e.rule}${e.component ? `:${e.component}` : ""}`);

describe("data-flow rules", () => {
  it("find nothing wrong with a valid flow, and name its destinations in order", () => {
    expect(rules(valid)).toEqual([]);
    expect(destinationsOf(valid).map((c) => c.name)).toEqual(["warehouse", "bucket"]);
  });

  it("ask for a source and a destination", () => {
    const onlySource: DataFlow = { components: [{ name: "in", type: "select", fields: ["x"] }], edges: [] };
    expect(rules(onlySource).slice(0, 2)).toEqual(["has-source", "has-destination"]);
  });

  it("say once that a flow without components has none", () => {
    expect(dataFlowErrors({ components: [], edges: [] }, {}, kindOf)).toEqual([{ rule: "has-components", message: "the flow has no components" }]);
  });

  it("name a dangling edge and a component with the wrong number of inputs or none fed", () => {
    const dangling: DataFlow = { ...valid, edges: [...valid.edges.filter((e) => e.to !== "bucket"), { from: "matched", to: "nowhere" }] };
    expect(rules(dangling)).toEqual(["edges-connect-components:nowhere", "inputs:bucket"]);
    const unfed: DataFlow = { ...valid, edges: valid.edges.filter((e) => e.from !== "accounts") };
    expect(rules(unfed)).toEqual(["connected:accounts", "inputs:matched"]);
  });

  it("refuse a loop, naming the components along it", () => {
    const looped: DataFlow = {
      components: [
        { name: "in", type: "source", connection: { id: 301 }, table: "t" },
        { name: "a", type: "join", condition: "x" },
        { name: "b", type: "select", fields: ["x"] },
        { name: "out", type: "destination", connection: { id: 301 }, table: "u" },
      ],
      edges: [
        { from: "in", to: "a" },
        { from: "a", to: "b" },
        { from: "b", to: "a" },
        { from: "b", to: "out" },
      ],
    };
    const errors = dataFlowErrors(looped, {}, kindOf);
    expect(errors.find((e) => e.rule === "no-cycles")?.message).toBe("the flow loops: a → b → a");
  });

  it("refuse a connection not in the account, and a service as a destination", () => {
    const flow: DataFlow = {
      components: [
        { name: "in", type: "source", connection: { id: 999 }, table: "t" },
        { name: "out", type: "destination", connection: { id: 306 }, path: "p" },
      ],
      edges: [{ from: "in", to: "out" }],
    };
    expect(dataFlowErrors(flow, {}, kindOf).map((e) => e.message)).toEqual([
      'source "in" uses connection 999, which is not in the account',
      'destination "out" writes to connection 306, a crm platform connection, which cannot be written to',
    ]);
  });

  it("refuse a connection.type the service does not know, or one that cannot play the component's role", () => {
    const flow: DataFlow = {
      components: [
        { name: "in", type: "source", connection: { id: 301, type: "postgress" }, table: "t" },
        { name: "out", type: "destination", connection: { id: 301, type: "salesforce" }, path: "p" },
      ],
      edges: [{ from: "in", to: "out" }],
    };
    expect(dataFlowErrors(flow, {}, kindOf).map((e) => `${e.rule}: ${e.message}`)).toEqual([
      'connection-type: source "in" gives connection.type "postgress", which is no connection type',
      'connection-type: destination "out" gives connection.type "salesforce", a crm platform connection, which cannot be written to',
    ]);
  });

  it("name a variable used but not defined", () => {
    expect(rules(valid, {})).toEqual(["variables-defined:recent"]);
  });
});
