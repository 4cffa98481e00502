/**
 * Form-style parameters in the query string of a POST or PUT that has no body, as form-posting
 * clients send them (`cluster[nodes]=1&cluster[type]=production`): the real service reads them
 * as the fields of a JSON body, so the emulator does too. Brackets nest (`a[b]`), empty
 * brackets append to a list (`a[]`, `a[][b]` for a list of objects), and a value of digits only is read as a number, as JSON
 * would carry it; every other value is text (booleans take their text spellings anyway).
 *
 * Clients built on Rails conventions wrap every field in the object's name (`cluster[nodes]=1`,
 * `job[cluster_id]=5`), which Rails reads as the bare fields too. So where a route's body has
 * no field of that name, the wrapped fields count as the body's own (body.ts, `parseBody`); the
 * object's name is the singular of a segment of the path (`/clusters/5` → `cluster`).
 */

type Node = Record<string, unknown>;

const INTEGER_TEXT = /^-?(0|[1-9]\d{0,14})$/;

/** `cluster[nodes]` → ["cluster", "nodes"]; `tags[]` → ["tags", ""]; undefined when malformed. */
function pathOf(key: string): string[] | undefined {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (match === null) return undefined;
  const inner = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!);
  return [match[1]!, ...inner];
}

function typedValue(text: string): unknown {
  return INTEGER_TEXT.test(text) ? Number(text) : text;
}

function place(target: Node, path: string[], value: unknown): void {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  if (rest[0] === "") {
    const list = Array.isArray(target[head]) ? (target[head] as unknown[]) : [];
    target[head] = list;
    if (rest.length === 1) return void list.push(value);
    // `a[][b]=1&a[][c]=2&a[][b]=3`: a key the last item has already starts the next one.
    const last = list.at(-1) as Node | undefined;
    const item = last !== undefined && typeof last === "object" && !(rest[1]! in last) ? last : {};
    if (item !== last) list.push(item);
    place(item, rest.slice(1), value);
    return;
  }
  const child = target[head] !== null && typeof target[head] === "object" && !Array.isArray(target[head]) ? (target[head] as Node) : {};
  target[head] = child;
  place(child, rest, value);
}

/** The body the parameters stand for, or undefined when there are none (or a key is not form-style). */
export function formBody(query: URLSearchParams): Node | undefined {
  const body: Node = {};
  let any = false;
  for (const [key, text] of query) {
    const path = pathOf(key);
    if (path === undefined) return undefined;
    place(body, path, typedValue(text));
    any = true;
  }
  return any ? body : undefined;
}

/** The names a Rails-style client wraps a form of this path in: `/connection_groups/5` → `connection_group`. */
export function objectNamesOf(path: string): string[] {
  return path
    .split("/")
    .filter((segment) => /^[a-z_]+$/.test(segment))
    .map((segment) => segment.replace(/ies$/, "y").replace(/s$/, ""));
}
