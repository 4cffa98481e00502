/**
 * The links of a Markdown page as a reader follows them: inline links and images outside code,
 * and the anchors its headings give (GitHub's rule: lower case, punctuation dropped, spaces as
 * hyphens, a repeated heading numbered).
 */

export interface MarkdownLink {
  /** The target as written: `docs/operations.md#faults`, `#install`, `https://…`. */
  target: string;
  /** 1-based. */
  line: number;
}

const FENCE = /^\s*(```|~~~)/;
const INLINE_CODE = /`[^`]*`/g;
/** `[text](target)` and `![alt](target)`; the text may hold one level of brackets. */
const LINK = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

/** Each line outside fenced code. */
function proseLines(text: string): Array<{ text: string; line: number }> {
  const lines: Array<{ text: string; line: number }> = [];
  let fenced = false;
  text.split("\n").forEach((line, index) => {
    if (FENCE.test(line)) {
      fenced = !fenced;
      return;
    }
    if (!fenced) lines.push({ text: line, line: index + 1 });
  });
  return lines;
}

/** Links may wrap across lines: the page is read whole, fenced code emptied and inline code blanked. */
export function markdownLinks(text: string): MarkdownLink[] {
  const lines = text.split("\n");
  const inProse = new Set(proseLines(text).map((prose) => prose.line));
  const prose = lines
    .map((line, index) => (inProse.has(index + 1) ? line : ""))
    .join("\n")
    .replace(INLINE_CODE, (code) => code.replace(/[^\n]/g, " "));
  return [...prose.matchAll(LINK)].map((match) => ({ target: match[1]!, line: prose.slice(0, match.index).split("\n").length }));
}

/** A target another site or scheme serves (`https:`, `mailto:`), not a path of this repository. */
export function isAbsolute(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

function slug(heading: string): string {
  return heading
    .replace(/`/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors a page's headings give, as GitHub makes them. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
