/**
 * What `etl-export` needs of a kind to write its objects into a program: where the service lists
 * them, and only what the field table cannot say (a record to complete, values the service never
 * returns, ids that are other objects of the account). The inputs themselves are the table's:
 * the ones an import by id rebuilds, so the program and the imported state agree.
 */
import type { SettingsUse } from "../../context";
import type { KindListing } from "./batched-reads";

/** A value the program takes from the stack's configuration: one the service never returns. */
export class ConfigValue {
  constructor(
    readonly name: string,
    readonly secret: boolean,
  ) {}
}

/** Another exported object, by reference: the program names its resource, whose `id` it takes. */
export class ResourceReference {
  constructor(
    readonly kind: string,
    readonly id: string,
  ) {}
}

/** The text of a file written beside the program. */
export class FileText {
  constructor(
    readonly path: string,
    readonly content: string,
  ) {}
}

export interface ExportContext {
  /** The object of that kind with this id as a reference when the export holds it, else the id as given. */
  reference(kind: string, id: number | string): unknown;
  /** A secret the service never returns: read from the stack's configuration, under a name made from the object's and `what`. */
  secret(what: string): ConfigValue;
  /** The same for a value that is not secret (a public key's line). */
  setting(what: string): ConfigValue;
  /** A file beside the program (`flows/<object>.json`), its content as given. */
  file(folder: string, extension: string, content: string): FileText;
}

/** Where the kind is listed (`listing`, `item`: the record, or the part of it `complete` starts from). */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds every kind's declaration; each kind's own types check its functions
export interface ExportDeclaration<Rec = any> extends KindListing {
  /** The record as the resource reads it, when the listing's item is not all of it. */
  complete?: (settings: SettingsUse, item: Rec) => Promise<Rec>;
  /** The listing answers with the one object of its kind (the user's settings), not a page. */
  single?: true;
  /** What names the object in the program. */
  name: (record: Rec) => string;
  /** Why the program cannot hold this object, when it cannot: asked of the listed item, and again of the whole record when `complete` reads it. */
  unrepresentable?: (record: Rec) => string | undefined;
  /** Objects of other kinds that belong to this one, made and removed with it by the service. */
  owns?: (record: Rec) => Array<{ kind: string; id: string }>;
  /** The inputs the table rebuilt, with references, secrets and files put in. */
  inputs?: (inputs: Record<string, unknown>, record: Rec, context: ExportContext) => Record<string, unknown>;
}

/** A kind left out of an export (what runs rather than what is set up, or the account itself), and why. */
export interface RuntimeKind {
  runtime: string;
}

export function isExportable(declaration: ExportDeclaration | RuntimeKind): declaration is ExportDeclaration {
  return !("runtime" in declaration);
}

/** `{ id: <reference> }` in place of a connection's id, in a list or one end of a delivery. */
export function withConnectionReference<T extends { id: unknown }>(connection: T, context: ExportContext): T {
  return { ...connection, id: context.reference("Connection", connection.id as number) };
}
