/**
 * The report as one HTML page, readable offline and attachable to a CI run: no script, and its
 * style and chart inline. The chart is an SVG of one bar per kind, its managed, unmanaged,
 * missing and conflicting objects end to end, scaled to the largest kind; then the lists.
 */
import { countsByKind, STATUSES, type Coverage, type CoveredObject, type Status } from "./report";
import { headline, TO_ACT_ON } from "./text";

const CHARTED: readonly Status[] = ["managed", "unmanaged", "missing", "conflicting"];
const COLOURS: Record<Status, string> = { managed: "#2e7d32", unmanaged: "#f9a825", missing: "#c62828", conflicting: "#6a1b9a", ignored: "#9e9e9e" };

const LABEL_WIDTH = 150;
const BAR_WIDTH = 520;
const ROW_HEIGHT = 26;

function escaped(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function bar(kind: string, counts: Record<Status, number>, row: number, scale: number): string {
  const y = 30 + row * ROW_HEIGHT;
  let x = LABEL_WIDTH;
  const parts = CHARTED.filter((status) => counts[status] > 0).map((status) => {
    const width = Math.max(1, counts[status] * scale);
    const rect = `<rect x="${x.toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="18" fill="${COLOURS[status]}"><title>${kind}: ${counts[status]} ${status}</title></rect>`;
    x += width;
    return rect;
  });
  const total = CHARTED.reduce((sum, status) => sum + counts[status], 0);
  return [`<text x="0" y="${y + 14}">${kind}</text>`, ...parts, `<text x="${(x + 6).toFixed(1)}" y="${y + 14}">${total}</text>`].join("");
}

function chart(coverage: Coverage): string {
  const kinds = countsByKind(coverage);
  const largest = Math.max(1, ...kinds.map(({ counts }) => CHARTED.reduce((sum, status) => sum + counts[status], 0)));
  const scale = BAR_WIDTH / largest;
  const legend = CHARTED.map(
    (status, index) =>
      `<rect x="${LABEL_WIDTH + index * 130}" y="4" width="12" height="12" fill="${COLOURS[status]}"/><text x="${LABEL_WIDTH + index * 130 + 18}" y="15">${status}</text>`,
  ).join("");
  const height = 40 + kinds.length * ROW_HEIGHT;
  const bars = kinds.map(({ kind, counts }, row) => bar(kind, counts, row, scale)).join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="objects by kind and status" width="${LABEL_WIDTH + BAR_WIDTH + 60}" height="${height}" font-size="13">${legend}\n${bars}</svg>`;
}

function table(objects: CoveredObject[]): string {
  const rows = objects.map(
    (object) =>
      `<tr><td>${object.kind}</td><td class="n">${escaped(object.id)}</td><td>${escaped(object.name)}</td><td>${escaped(object.stacks.join(", "))}</td><td class="urn">${object.urns.map(escaped).join("<br>")}</td></tr>`,
  );
  return `<table><thead><tr><th>kind</th><th>id</th><th>name</th><th>stacks</th><th>resources</th></tr></thead><tbody>\n${rows.join("\n")}\n</tbody></table>`;
}

function section(status: Status, objects: CoveredObject[]): string {
  const open = (TO_ACT_ON as readonly string[]).includes(status) ? " open" : "";
  return `<details${open}><summary><span class="dot" style="background:${COLOURS[status]}"></span>${objects.length} ${status}</summary>\n${table(objects)}\n</details>`;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:2em;color:#212121}table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{border-bottom:1px solid #e0e0e0;padding:3px 10px;text-align:left;vertical-align:top}td.n{text-align:right}td.urn{font-family:monospace;font-size:11px;color:#616161}
summary{cursor:pointer;font-weight:600;margin:.6em 0}.dot{display:inline-block;width:10px;height:10px;margin-right:6px;border-radius:2px}`;

export function htmlPage(coverage: Coverage, generatedAt: Date): string {
  const sections = [...TO_ACT_ON, "ignored" as const, "managed" as const]
    .map((status) => ({ status, objects: coverage.objects.filter((object) => object.status === status) }))
    .filter(({ objects }) => objects.length > 0)
    .map(({ status, objects }) => section(status, objects));
  const counts = STATUSES.map((status) => `<td class="n">${coverage.summary[status]}</td>`).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ETL coverage of ${escaped(coverage.accountId)}</title><style>${STYLE}</style></head>
<body>
<h1>ETL account ${escaped(coverage.accountId)}: coverage ${coverage.summary.coverage}%</h1>
<p>${escaped(headline(coverage))}; read ${generatedAt.toISOString()}.</p>
<table><thead><tr>${STATUSES.map((status) => `<th>${status}</th>`).join("")}</tr></thead><tbody><tr>${counts}</tr></tbody></table>
${chart(coverage)}
${sections.join("\n")}
</body></html>
`;
}
