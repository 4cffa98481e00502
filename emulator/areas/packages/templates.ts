import type { DataFlow } from "../../../contract/data-flow";

/**
 * Package templates (facts, "Packages": `GET /packages/templates`), the same for every account.
 * A template's sources and destinations leave their connection out: a package made from it
 * validates once its flow names connections of the account (`connection` is the rule it breaks
 * until then).
 */

export interface PackageTemplate {
  id: number;
  name: string;
  description: string;
  position: number;
  flowType: "dataflow" | "workflow";
  variables: Record<string, string>;
  dataFlow: DataFlow;
}

const AUTHOR = { id: 1, name: "The service", avatar_url: null };

export const PACKAGE_TEMPLATES: readonly PackageTemplate[] = [
  {
    id: 1,
    name: "Copy a table",
    description: "Reads a table and writes it to a database or cloud storage as it is.",
    position: 1,
    flowType: "dataflow",
    variables: {},
    dataFlow: {
      components: [
        { name: "source", type: "source", table: "source_table" },
        { name: "destination", type: "destination", table: "destination_table" },
      ],
      edges: [{ from: "source", to: "destination" }],
    },
  },
  {
    id: 2,
    name: "Daily rollup",
    description: "Keeps the rows of one day and sums a measure by a field.",
    position: 2,
    flowType: "dataflow",
    variables: { day: "2026-01-01" },
    dataFlow: {
      components: [
        { name: "events", type: "source", table: "events" },
        { name: "one_day", type: "filter", condition: "date = '${day}'" },
        { name: "rollup", type: "aggregate", fields: ["account_id"], measures: { total: "sum(amount)" } },
        { name: "warehouse", type: "destination", table: "daily_totals" },
      ],
      edges: [
        { from: "events", to: "one_day" },
        { from: "one_day", to: "rollup" },
        { from: "rollup", to: "warehouse" },
      ],
    },
  },
];

export function templateJson(template: PackageTemplate): Record<string, unknown> {
  const { id, name, description, position } = template;
  return { id, name, description, position, author: AUTHOR };
}
