/**
 * The inputs' documentation as the doc comments on the field tables (and on nested `*Args` interfaces) say it, collected at build time
 * (scripts/field-docs.cts) beside this module: written once, for editors and the schema alike.
 * Loaded with `require` so that a bundle of the plugin (`npm run dist`) carries it inside.
 */
type Docs = Record<string, Record<string, string>>;

function allDocs(): Docs {
  // Written by the build (scripts/field-docs.cts); without it every schema would lose its docs. `require` keeps what it loaded.
  return require("./field-docs.json") as Docs;
}

/** What each input of `<name>Args` (or `Common<name>Args`, for a kind whose arguments vary by type) says it is. */
export function fieldDocs(name: string): Record<string, string> {
  const all = allDocs();
  return { ...all[`Common${name}Args`], ...all[`${name}Args`] };
}
