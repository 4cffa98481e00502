import { packageStateRecord } from "../../api/packages";
import { declareResource } from "../shared/declaration";
import { packageExport } from "./export";
import { tableOperations } from "./fields";
import { packageImplementation } from "./implementation";
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedPackage } from "./implementation";

/**
 * Recovering packages: by name and flow, made in the deployment's window. A package the killed
 * create made was not validated yet (or not to its end), so the next `up` validates it.
 */
const packageRecover: RecoverDeclaration = {
  by: "its name",
  find: findCreatedPackage,
  unsettled: (outputs) => (outputs.validate === false || outputs.validationStatus === "completed" ? undefined : "its validation has not passed yet"),
};

export const packageDeclaration = declareResource({
  kind: "Package",
  description:
    "A data flow the service runs. Validated after each change unless `validate` is false: an invalid package fails `up` with each broken rule named and stays in the stack. Destroy archives it, as the service's delete does.",
  notes: [
    "A data flow kept in the repository and reviewed in pull requests. `dataFlow` is the flow (`{ components, edges }`: sources and destinations naming a connection by id, and select, filter, aggregate and join between them; the shape is in [the emulator's README](../../../emulator/README.md#packages-and-their-flows)), or a package's export document (`getPackageExport`), as an object or as JSON text read from a file. `JobRun` and `Schedule` take the `Package` itself where they take a package id, so the engine orders them after it:",
    "",
    "```ts",
    'import * as fs from "node:fs";',
    'import * as etl from "pulumi-etl";',
    "",
    'const orders = new etl.Package("orders", {',
    '  name: "orders to warehouse",',
    '  variables: { since: "2026-01-01" },',
    '  dataFlow: fs.readFileSync("flows/orders.json", "utf8"), // getPackageExport\'s document, or the flow itself',
    "});",
    'new etl.Schedule("nightly", { name: "nightly orders", interval: { amount: 1, unit: "days" }, task: { packages: [{ packageId: orders }] } });',
    "```",
    "",
    "- The flow is compared by meaning: key order, whitespace, the order of edges, an export document's other fields and whatever the service adds never show as a change. A connection id may be a number or a string (a `Connection`'s `id`).",
    "",
    "- At preview, with no API call, the flow's shape and the rules that do not need the account are checked: component types and fields, names unique, a source and a destination, edges between components, each component's inputs, no cycle, variables defined, and a `connection.type` a component gives: a type the service knows, able to play the component's role (a destination's a database or cloud storage). Whether it is the connection's actual type needs the account: the create or update reads each such connection first (one `GET /connections/{id}` each) and fails, naming the component and `connection.type`, before sending a flow that contradicts it.",
    "",
    "- The service takes a flow whose connection does not exist and leaves it to the validation, so the provider reads the connections first: the create reads every connection the flow names, and an update those it names that the recorded flow did not (a `sourceConnectionId` or `destinationConnectionId` given anew, likewise), before anything is sent. A connection the account does not have fails `up` naming the input, as `dataFlow.components.1.connection.id 999999: no connection with this id in account acme`: a create makes nothing, and an update leaves the package's flow, on the service and in the state, as it was. The cost is one `GET /connections/{id}` per distinct connection new to the flow (the `connection.type` check above takes the same reads), none at preview, at refresh or when the flow's connections stay: a flow names a few connections, while a listing of the account's connections grows with the account (one call per 100 connections) and would be paid at every such create and update. A connection deleted after the flow named it is found by the validation.",
    "",
    "- A package without a flow, as the web application makes one first: leave `dataFlow` out, or give a flow (or export document) of no components; the create then sends no `data_flow_json`, and either form previews the same. The service's validation of such a package fails once with \"the flow has no components\" (rule `has-components`); the provider neither checks the flow's rules at preview nor validates such a package after a create or update, whatever `validate` says, so `validationStatus` is unset. Taking a flow away (dropping `dataFlow`) sends an empty flow. An import by id and `etl-export` write such a package without `dataFlow` (and no file), and the preview after either is empty.",
    "",
    "- After each create and update `up` validates the package (`validate: false` turns it off). An invalid package (a destination on a connection that cannot be written to, a connection deleted since the flow named it) fails `up` with every broken rule named; the package stays in the stack as updated, and the next `up` validates it again rather than making another. `version` grows by one per update; `validationStatus` and `validationErrors` are the last validation's.",
    "",
    "- `flowType` (`dataflow` or `workflow`) replaces the package; everything else updates it in place.",
    "",
    "- A package can start from one of the service's templates (`getPackageTemplates`) instead of a flow: `templateId`, with `sourceConnectionId` and `destinationConnectionId`, the connections every source of the template's flow reads and every destination writes (a template names none, so both are required unless `validate: false`). `up` makes the package from the template, reads its flow, sets the connections in one update and validates it (four calls). From then on the flow is the package's own: only its connections are compared with the program, so a change of one on the service shows at the next refresh and `up` sets it back, while an edit of the rest of the flow in the web application stays. The template's description and variables apply unless the program gives its own. A new `templateId` replaces the package; `dataFlow` beside it is refused at preview. `etl-export` writes such a package with its flow, as the service no longer says which template it came from.",
    "",
    "- The service's delete is soft: destroy archives the package (it stays readable on the service), and a package archived elsewhere reads as gone on refresh. Nothing restores an archived package.",
    "",
    "[examples/promote-pipeline](../../../examples/promote-pipeline) keeps a flow as an export document (`flows/won-deals.json`) and declares it in each stack's account: `dev` as it is, a `production` stack (`environment: production`, `connectionIds` mapping the document's connection ids to that account's) with a nightly `Schedule` of it and a `Delivery` of the CRM's contacts into the warehouse.",
  ],
  implementation: packageImplementation,
  recover: packageRecover,
  export: packageExport,
  tableOperations,
  record: packageStateRecord,
  secrets: [],
  example: {
    name: "orders to warehouse",
    variables: { since: "2026-01-01" },
    dataFlow: {
      components: [
        { name: "orders", type: "source", connection: { id: 301 }, table: "orders" },
        { name: "recent", type: "filter", condition: "created_at > '${since}'" },
        { name: "warehouse", type: "destination", connection: { id: 302 }, table: "recent_orders" },
      ],
      edges: [
        { from: "orders", to: "recent" },
        { from: "recent", to: "warehouse" },
      ],
    },
  },
});

export type { PackageArgs, PackageOutputs, PackageValidationError } from "./fields";
