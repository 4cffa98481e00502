/** Cluster in the tests: nodes that run jobs, ended (terminated) rather than deleted. */
import { badInput, type KindTests, NONE_MADE_BY_THE_SERVICE, LONG_NAME, referenceExample, secretBadInput, soakName, tableOfTheAccount } from "../kind-tests";

/** A terminating cluster counts as gone, as the provider's delete treats it: it cannot run jobs and never comes back. */
const ENDING = new Set(["pending_terminate", "terminating", "terminated"]);

const rows = tableOfTheAccount("clusters");
const name = soakName("cluster");

export const cluster: KindTests = {
  rows,
  made: { rows, id: (row) => String(row.id) },
  exampleInputs: () => referenceExample("Cluster"),
  replacingChange: { region: "eu-west-1" },
  oldObject: { status: "terminated" },
  forcedReplacement: "new object",
  soak: {
    count: 2,
    name,
    args: (i) => ({ name: name(i), nodes: 1, timeoutSeconds: 600 }),
    object: (r) => ({ id: String(r.id), owner: r.name ?? undefined, live: !ENDING.has(r.status), status: r.status }),
    // Terminating is not enough: destroy waits for the end.
    leftover: (r) => (r.status === "terminated" ? undefined : `cluster ${r.id} (${r.name}) is ${r.status}`),
    serviceMade: NONE_MADE_BY_THE_SERVICE,
  },
  badInputs: [
    secretBadInput("secret importId not numeric", "importId", { nodes: 1, importId: "import-SECRET-xyz" }, "importId"),
    badInput("no nodes", "nodes", { type: "production" }),
    badInput("zero nodes", "nodes", { nodes: 0 }),
    badInput("too many nodes", "nodes", { nodes: 101 }),
    badInput("fractional nodes", "nodes", { nodes: 1.5 }),
    badInput("nodes as text", "nodes", { nodes: "two" }),
    badInput("unknown type", "type", { nodes: 1, type: "huge" }),
    badInput("sandbox with 2 nodes", "nodes", { nodes: 2, type: "sandbox" }),
    badInput("timeToIdle too short", "timeToIdle", { nodes: 1, timeToIdle: 10 }),
    badInput("terminateOnIdle as text", "terminateOnIdle", { nodes: 1, terminateOnIdle: "yes" }),
    badInput("name over 255 characters", "name", { nodes: 1, name: LONG_NAME }),
    badInput("empty region", "region", { nodes: 1, region: "" }),
    badInput("zero timeout", "timeoutSeconds", { nodes: 1, timeoutSeconds: 0 }),
    badInput("unknown input", "size", { nodes: 1, size: "large" }),
  ],
};
