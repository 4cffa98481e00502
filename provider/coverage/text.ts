/**
 * The report as text: a table for the terminal, and Markdown for a pull request or an issue.
 * Both give the counts by kind, then each object to act on (conflicting, missing, unmanaged),
 * with the stacks that hold it; managed and ignored objects are counted, and listed in the JSON
 * and the HTML page.
 */
import { countsByKind, STATUSES, type Coverage, type CoveredObject, type Status } from "./report";

/** The statuses that ask for something to be done, the most urgent first. */
export const TO_ACT_ON: readonly Status[] = ["conflicting", "missing", "unmanaged"];

export function toActOn(coverage: Coverage): CoveredObject[] {
  return TO_ACT_ON.flatMap((status) => coverage.objects.filter((object) => object.status === status));
}

export function headline(coverage: Coverage): string {
  const { summary } = coverage;
  const counts = STATUSES.map((status) => `${summary[status]} ${status}`).join(", ");
  return `account ${coverage.accountId}: coverage ${summary.coverage}% (${counts})`;
}

function aligned(rows: string[][], numericFrom: number): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column >= numericFrom ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd(),
  );
}

function kindRows(coverage: Coverage): string[][] {
  const rows = countsByKind(coverage).map(({ kind, counts }) => [kind, ...STATUSES.map((status) => String(counts[status]))]);
  const total = ["total", ...STATUSES.map((status) => String(coverage.summary[status]))];
  return [["KIND", ...STATUSES.map((status) => status.toUpperCase())], ...rows, total];
}

function stacksOf(object: CoveredObject): string {
  return object.stacks.length === 0 ? "-" : object.stacks.join(", ");
}

export function terminalTable(coverage: Coverage): string {
  const lines = [headline(coverage), "", ...aligned(kindRows(coverage), 1)];
  const acting = toActOn(coverage);
  if (acting.length > 0) {
    const rows = acting.map((object) => [object.status, object.kind, object.id, object.name, stacksOf(object)]);
    lines.push("", ...aligned([["STATUS", "KIND", "ID", "NAME", "STACKS"], ...rows], 5));
  } else {
    lines.push("", "nothing unmanaged, missing or conflicting");
  }
  return `${lines.join("\n")}\n`;
}

/** A cell's text with what Markdown would read as the table's own syntax escaped. */
function cell(text: string): string {
  return (
    text
      .replace(/\\/g, "\\\\")
      .replace(/\|/g, "\\|")
      .replace(/[`*_<>[\]]/g, "\\$&") || " "
  );
}

export function markdown(coverage: Coverage): string {
  const { summary } = coverage;
  const lines = [
    `### ETL account ${cell(coverage.accountId)}: coverage ${summary.coverage}%`,
    "",
    `| kind | ${STATUSES.join(" | ")} |`,
    `|---|${STATUSES.map(() => "---:").join("|")}|`,
    ...countsByKind(coverage).map(({ kind, counts }) => `| ${kind} | ${STATUSES.map((status) => counts[status]).join(" | ")} |`),
    `| **total** | ${STATUSES.map((status) => `**${summary[status]}**`).join(" | ")} |`,
  ];
  for (const status of TO_ACT_ON) {
    const objects = coverage.objects.filter((object) => object.status === status);
    if (objects.length === 0) continue;
    lines.push("", `<details${status === "unmanaged" ? "" : " open"}><summary>${objects.length} ${status}</summary>`, "");
    lines.push("| kind | id | name | stacks |", "|---|---:|---|---|");
    lines.push(...objects.map((object) => `| ${object.kind} | ${object.id} | ${cell(object.name)} | ${cell(object.stacks.join(", "))} |`));
    lines.push("", "</details>");
  }
  return `${lines.join("\n")}\n`;
}
