/**
 * `Link` headers of 100,000 characters built to make a backtracking parser spend seconds to
 * hours; a linear one reads each in a few milliseconds. The unit tests check what the parser
 * makes of them; `npm run bench:link-header` times it.
 */
export const PATHOLOGICAL_LINK_HEADERS: Array<[string, string]> = [
  ["<<<<;;; noise", "<<<<;;;".repeat(100_000 / 7)],
  ["unclosed quotes after escapes", `<http://h/x>; rel="${'\\"'.repeat(50_000)}`],
  ["empty parameters", `<http://h/x>${";".repeat(100_000)}`],
  ["targets with no separators", "<>;".repeat(33_334)],
  ["many short links", '<a>; rel="x", '.repeat(7_000)],
  ["names and equals signs", `<a>; ${"b=c ".repeat(25_000)}`],
  ["commas only", ",".repeat(100_000)],
];
