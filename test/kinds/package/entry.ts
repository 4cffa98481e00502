/** Package in the tests: a data flow the service runs as jobs; destroy archives it. */
import { BUCKET, DATABASE } from "../../support/soak-account";
import { badInput, type KindTests, NONE_MADE_BY_THE_SERVICE, referenceExample, soakName, tableOfTheAccount } from "../kind-tests";

const FLOW = {
  components: [
    { name: "rows", type: "source", connection: { id: 301 }, table: "orders" },
    { name: "lake", type: "destination", connection: { id: 303 }, path: "orders/" },
  ],
  edges: [{ from: "rows", to: "lake" }],
};
const FLOW_PACKAGE = { name: "orders", dataFlow: FLOW };

/** A database table copied to the bucket. */
function soakFlow(i: number) {
  return {
    components: [
      { name: "rows", type: "source", connection: { id: DATABASE.id }, table: `soak_${i}` },
      { name: "lake", type: "destination", connection: { id: BUCKET.id }, path: `soak/${i}` },
    ],
    edges: [{ from: "rows", to: "lake" }],
  };
}

const rows = tableOfTheAccount("packages");
const name = soakName("package");

export const pkg: KindTests = {
  rows,
  made: { rows, id: (row) => String(row.id) },
  exampleInputs: () => ({ ...referenceExample("Package"), validate: false }),
  replacingChange: { flowType: "workflow" },
  oldObject: { status: "archived" },
  forcedReplacement: "new object",
  soak: {
    count: 1,
    name,
    args: (i) => ({ name: name(i), dataFlow: soakFlow(i) }),
    // Destroy archives a package, and an archived package never comes back: it is no longer the stack's.
    object: (r) => ({ id: String(r.id), owner: r.name, live: r.status === "active", status: r.status }),
    leftover: (r) => (r.status === "archived" ? undefined : `package ${r.id} (${r.name}) is ${r.status}`),
    serviceMade: NONE_MADE_BY_THE_SERVICE,
  },
  badInputs: [
    badInput("an edge to no component", "dataFlow", { ...FLOW_PACKAGE, dataFlow: { ...FLOW, edges: [...FLOW.edges, { from: "rows", to: "nowhere" }] } }),
    badInput("a component of an unknown type", "dataFlow.components.0.type", {
      ...FLOW_PACKAGE,
      dataFlow: { ...FLOW, components: [{ name: "rows", type: "pivot" }] },
    }),
    badInput("a misspelt component field", "dataFlow.components.0.conection", {
      ...FLOW_PACKAGE,
      dataFlow: { ...FLOW, components: [{ ...FLOW.components[0], conection: { id: 1 } }, FLOW.components[1]] },
    }),
    badInput("a flow that is not JSON", "dataFlow", { ...FLOW_PACKAGE, dataFlow: "{components" }),
    badInput("a variable used and not defined", "dataFlow", {
      ...FLOW_PACKAGE,
      dataFlow: { ...FLOW, components: [{ ...FLOW.components[0], table: "${schema}.orders" }, FLOW.components[1]] },
    }),
    badInput("a destination feeding a source", "dataFlow", { ...FLOW_PACKAGE, dataFlow: { ...FLOW, edges: [...FLOW.edges, { from: "lake", to: "rows" }] } }),
    badInput("unknown flow type", "flowType", { ...FLOW_PACKAGE, flowType: "graph" }),
    badInput("a flow that is a number", "dataFlow", { name: "orders", dataFlow: 42 }),
    badInput("a connection id of zero", "dataFlow.components.0.connection.id", {
      ...FLOW_PACKAGE,
      dataFlow: { ...FLOW, components: [{ ...FLOW.components[0], connection: { id: 0 } }, FLOW.components[1]] },
    }),
    badInput("a connection.type that cannot be written", "dataFlow", {
      ...FLOW_PACKAGE,
      dataFlow: { ...FLOW, components: [FLOW.components[0], { ...FLOW.components[1], connection: { id: 303, type: "salesforce" } }] },
    }),
  ],
};
