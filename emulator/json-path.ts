/**
 * `accounts[0].users[1].apiKey`, `connections[1].id`: a path into a JSON value written the way
 * people read JSON, for messages about a request body or a fixtures file. Empty for the root.
 */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`)).join("");
}
