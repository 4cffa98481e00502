/**
 * The chart of docs/development.md's Benchmarks section: `pulumi up` time against N, the provider's kinds next to the floors. When
 * the plugin was measured, its kinds are the ones drawn (the surface every language uses), with
 * both floors.
 */
import { isFloor, isSurfaceFloor, onPlugin } from "./kinds.mts";
import type { LifecycleResult } from "./measure.mts";

const WIDTH = 720;
const HEIGHT = 460;
const MARGIN = { left: 64, right: 170, top: 40, bottom: 56 };
/** The floor in grey, the kinds in the order they come, each its own colour. */
const FLOOR_COLOUR = "#555555";
const PLUGIN_FLOOR_COLOUR = "#000000";
const FLOOR_LABELS: Record<string, string> = { Floor: "floor (no-op dynamic)", "Floor@plugin": "floor (no-op plugin)" };
const PALETTE = ["#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#637939"];

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A round step for about five ticks up to `max`. */
function tickStep(max: number): number {
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((candidate) => candidate >= raw);
  return step ?? 10 * magnitude;
}

export function upTimeChart(all: LifecycleResult[], caption: string): string {
  // The kinds and the surfaces' floors: a kind's own floor is in the tables.
  const measured = all.filter((r) => !isFloor(r.kind) || isSurfaceFloor(r.kind));
  const pluginMeasured = measured.some((r) => onPlugin(r.kind) && !isFloor(r.kind));
  const results = measured.filter((r) => !pluginMeasured || onPlugin(r.kind) || isFloor(r.kind));
  const counts = [...new Set(results.map((r) => r.count))].sort((a, b) => a - b);
  const maxCount = Math.max(...counts);
  const maxSeconds = Math.max(...results.map((r) => r.operations.up.seconds));
  const step = tickStep(maxSeconds);
  const top = Math.ceil(maxSeconds / step) * step;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const round = (value: number) => Math.round(value * 10) / 10;
  const x = (count: number) => round(MARGIN.left + (count / maxCount) * plotWidth);
  const y = (seconds: number) => round(MARGIN.top + plotHeight - (seconds / top) * plotHeight);

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${MARGIN.left}" y="22" font-size="15" font-weight="bold">pulumi up: wall time against resources per stack</text>`,
  ];
  for (let seconds = 0; seconds <= top; seconds += step) {
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${y(seconds)}" y2="${y(seconds)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${MARGIN.left - 8}" y="${y(seconds) + 4}" text-anchor="end">${seconds}</text>`);
  }
  for (const count of [0, ...counts]) {
    parts.push(`<text x="${x(count)}" y="${MARGIN.top + plotHeight + 18}" text-anchor="middle">${count}</text>`);
  }
  parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${y(0)}" y2="${y(0)}" stroke="#333"/>`);
  parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${y(0)}" stroke="#333"/>`);
  parts.push(`<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 24}" text-anchor="middle">resources in the stack (N)</text>`);
  parts.push(`<text transform="translate(18 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">seconds</text>`);
  parts.push(`<text x="${MARGIN.left}" y="${HEIGHT - 6}" font-size="10" fill="#666">${escapeXml(caption)}</text>`);

  const kinds = [...new Set(results.map((r) => r.kind))];
  const drawn = kinds.filter((kind) => !isFloor(kind));
  kinds.forEach((kind, index) => {
    const colour = kind === "Floor" ? FLOOR_COLOUR : kind === "Floor@plugin" ? PLUGIN_FLOOR_COLOUR : PALETTE[drawn.indexOf(kind) % PALETTE.length]!;
    const points = results.filter((r) => r.kind === kind).sort((a, b) => a.count - b.count);
    const path = points.map((p) => `${x(p.count)},${y(p.operations.up.seconds)}`).join(" ");
    const dash = isFloor(kind) ? ` stroke-dasharray="6 4"` : "";
    parts.push(`<polyline points="${path}" fill="none" stroke="${colour}" stroke-width="2"${dash}/>`);
    for (const p of points) parts.push(`<circle cx="${x(p.count)}" cy="${y(p.operations.up.seconds)}" r="3" fill="${colour}"/>`);
    const legendY = MARGIN.top + 10 + index * 17;
    const legendX = MARGIN.left + plotWidth + 16;
    parts.push(`<line x1="${legendX}" x2="${legendX + 24}" y1="${legendY}" y2="${legendY}" stroke="${colour}" stroke-width="2"${dash}/>`);
    parts.push(`<text x="${legendX + 30}" y="${legendY + 4}">${escapeXml(FLOOR_LABELS[kind] ?? kind)}</text>`);
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
