/**
 * The names an export gives objects: a readable logical name from the object's own name, unique
 * in its kind and the same on every export of the account (the oldest object of a name keeps it
 * bare, later ones add their id), and the program's variable names made from it.
 */

const MAX_NAME_LENGTH = 60;

/** `Orders → Warehouse (EU)` → `orders-warehouse-eu`. */
export function slugOf(text: string): string {
  const slug = text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug.slice(0, MAX_NAME_LENGTH).replace(/-+$/, "");
}

/** How `--only` spells a kind: `ConnectionGroup` → `connection-groups`, `Delivery` → `deliveries`. */
export function kindOptionName(kind: string): string {
  const words = kind.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
  return /[^aeiou]y$/.test(words) ? `${words.slice(0, -1)}ies` : `${words}s`;
}

/** Each object's logical name by `kind:id`; objects in id order within a kind. */
export function logicalNames(items: ReadonlyArray<{ kind: string; id: string; label: string }>): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const ordered = [...items].sort((a, b) => (a.kind === b.kind ? Number(a.id) - Number(b.id) : a.kind < b.kind ? -1 : 1));
  for (const item of ordered) {
    const slug = slugOf(item.label) || item.kind.toLowerCase();
    let name = taken.has(`${item.kind}:${slug}`) ? `${slug}-${item.id}` : slug;
    while (taken.has(`${item.kind}:${name}`)) name = `${name}-${item.id}`;
    taken.add(`${item.kind}:${name}`);
    names.set(`${item.kind}:${item.id}`, name);
  }
  return names;
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** `Connection` and `orders-db` → `connectionOrdersDb`: the kind first, so no name is a keyword or starts with a digit. */
export function variableName(kind: string, logicalName: string): string {
  return `${kind.charAt(0).toLowerCase()}${kind.slice(1)}${logicalName.split("-").map(capitalized).join("")}`;
}

/** `connectionOrdersDb` → `connection_orders_db`, as Python names variables and its SDK names arguments. */
export function snakeCaseOf(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}
