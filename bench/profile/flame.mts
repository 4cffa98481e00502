/**
 * A flame graph as SVG: each frame a box as wide as the time spent in it and in what it called,
 * callers below their callees; frames narrower than a pixel are left out, and each box's title
 * gives its full name, time and share. Colour says whose code it is (colourOf).
 */
import type { SampledStack } from "./stacks.mts";

interface FrameNode {
  name: string;
  ms: number;
  children: Map<string, FrameNode>;
}

const WIDTH = 1200;
const ROW = 16;
const MARGIN = 10;
const TITLE_HEIGHT = 24;
const CHAR_WIDTH = 6.2;

function treeOf(stacks: SampledStack[]): FrameNode {
  const root: FrameNode = { name: "all", ms: 0, children: new Map() };
  for (const stack of stacks) {
    root.ms += stack.ms;
    let node = root;
    for (const frame of stack.frames) {
      let child = node.children.get(frame);
      if (!child) {
        child = { name: frame, ms: 0, children: new Map() };
        node.children.set(frame, child);
      }
      child.ms += stack.ms;
      node = child;
    }
  }
  return root;
}

function depthOf(node: FrameNode, pixelsPerMs: number): number {
  let deepest = 0;
  for (const child of node.children.values()) if (child.ms * pixelsPerMs >= 1) deepest = Math.max(deepest, depthOf(child, pixelsPerMs));
  return deepest + 1;
}

function xmlText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Whose code a frame is: the provider's, Pulumi's SDK or engine, the wire (gRPC, protobuf), the runtime. */
export function colourOf(frame: string): string {
  if (/pulumi-etl|bench\/program|noop/.test(frame)) return "#e4572e";
  if (/@grpc|grpc\.|google-protobuf|protobuf/.test(frame)) return "#4c9be8";
  if (/@pulumi\/pulumi|github\.com\/pulumi\//.test(frame)) return "#f3a712";
  if (/garbage collector|^runtime\.(gc|mallocgc|scanObject|markBits)/.test(frame)) return "#8c8c8c";
  if (/Node\.js built-ins|^\(|^runtime\.|^syscall\.|^internal\//.test(frame)) return "#b5b5b5";
  return "#a8c66c";
}

/** The SVG of a flame graph of these stacks, titled. */
export function flameGraphSvg(title: string, stacks: SampledStack[]): string {
  const root = treeOf(stacks);
  const pixelsPerMs = root.ms === 0 ? 0 : (WIDTH - 2 * MARGIN) / root.ms;
  const depth = depthOf(root, pixelsPerMs);
  const height = TITLE_HEIGHT + depth * ROW + MARGIN;
  const boxes: string[] = [];
  const draw = (node: FrameNode, x: number, level: number): void => {
    const width = node.ms * pixelsPerMs;
    if (width < 1) return;
    const y = height - MARGIN - (level + 1) * ROW;
    const share = ((100 * node.ms) / root.ms).toFixed(1);
    const fits = Math.floor((width - 4) / CHAR_WIDTH);
    const label = fits < 3 ? "" : node.name.length <= fits ? node.name : `${node.name.slice(0, fits - 1)}…`;
    boxes.push(
      `<g><title>${xmlText(`${node.name}: ${node.ms.toFixed(0)} ms, ${share} %`)}</title>` +
        `<rect x="${x.toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="${ROW - 1}" fill="${level === 0 ? "#dddddd" : colourOf(node.name)}" rx="2"/>` +
        (label ? `<text x="${(x + 3).toFixed(1)}" y="${y + ROW - 4}">${xmlText(label)}</text>` : "") +
        "</g>",
    );
    let childX = x;
    for (const child of [...node.children.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      draw(child, childX, level + 1);
      childX += child.ms * pixelsPerMs;
    }
  };
  draw(root, MARGIN, 0);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="monospace" font-size="11">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${MARGIN}" y="16" font-size="13">${xmlText(title)}</text>`,
    ...boxes,
    "</svg>",
    "",
  ].join("\n");
}
