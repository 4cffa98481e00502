/**
 * What a kind of resource is, declared once in its folder (`<kind>/declaration.ts`): everything
 * else (the class programs instantiate, both providers' dispatch, the plugin's schema, the SDKs,
 * the reference page, `etl-export`, `etl-recover`, the tests' and the benchmark's kind lists)
 * is made from the declaration through the one list of them (`registry.ts`).
 */
import type { z } from "zod";
import type { ExportDeclaration, RuntimeKind } from "./exported";
import type { FieldTable } from "./fields";
import type { ResourceImplementation } from "./implementation";
import type { RecoverDeclaration } from "./recovery";
import type { ResourceInput } from "./references";

export interface ResourceDeclaration<Kind extends string = string> {
  /**
   * The kind's name, stored in every stack's state (the type tokens `pulumi-nodejs:dynamic/etl:<Kind>`
   * and `etl:index:<Kind>`, and the one-line provider): never renamed.
   */
  kind: Kind;
  /** What the resource is, for its class, its reference page and the SDKs. */
  description: string;
  /** One line for the tables of kinds (the README's); without it, the description's first sentence. */
  summary?: string;
  /**
   * What a user should know beyond the fields' descriptions (how `up`, `refresh` and `destroy`
   * treat the object, what the service cannot do, costs, fuller examples), rendered on the
   * kind's reference page: markdown, one line an element, an empty element between paragraphs.
   * A fenced example is checked as the page's others are (test/sdk/reference-examples.test.ts).
   */
  notes: readonly string[];
  /** What the kind does on the service: its check, diff and CRUD (`<kind>/implementation.ts`). */
  implementation: ResourceImplementation<unknown, unknown>;
  /** The field table and what is made of it (`fieldOperations`, in `<kind>/fields.ts`). */
  tableOperations: {
    table: FieldTable<never>;
    outputNames: readonly string[];
    /** What an import by id alone rebuilds from the record: the outputs, and the inputs that make them. */
    readResult(id: string, record: never, props: never): { inputs?: object };
  };
  /** The service's record: the types of the outputs read from it. */
  record: z.ZodType;
  /** Inputs, and the outputs of the same names, kept only encrypted. */
  secrets: readonly string[];
  /** A replacement deletes the old object first (a name or key the service holds once). */
  deleteBeforeReplace?: boolean;
  /**
   * The service holds one and never makes it (nor deletes it): create takes it over with a PUT,
   * and a replacement or a destroy leaves the same object. A second resource of the kind under
   * one provider (one program, for the dynamic resources) is refused at preview (singleton.ts).
   */
  singleton?: true;
  /**
   * The input whose value names one object the service holds for an API key (a watcher's
   * `clusterId`: a user watches a cluster once). Two resources of the kind with one value under
   * one provider (one program, for the dynamic resources) are refused at preview (singleton.ts).
   */
  oncePer?: string;
  /**
   * Outputs unknown at a preview while the object does not have them yet (made, or changed): an
   * explicit provider following one (an Account's `slug` as its `accountId`) is then not yet
   * configured, so it does not prove settings naming an account that does not exist until `up`.
   * Every other output previews as its input, as the engine previews a provider without previews.
   */
  unknownAtPreview?: readonly string[];
  /**
   * Inputs for the reference page's example (`{ secretConfig }`: a secret of the stack's
   * configuration); they pass `check`. The examples describe one account (connection 301 is a
   * postgres database, 302 a redshift warehouse, 306 a salesforce account; package 101, cluster
   * 201), which the benchmark's emulator holds, so it measures every kind from its example:
   * one made many times must stay as made (a cluster that ends itself when idle would not).
   */
  example: Record<string, unknown>;
  /** What `pulumi import` takes as the id, when it is not the object's own id ("the cluster's id"). */
  importedBy?: string;
  /** How `etl-export` writes the kind's objects into a program, or why it leaves them out. */
  export: ExportDeclaration | RuntimeKind;
  /**
   * Where the inputs take another resource. The dynamic resources' classes put in what a
   * resource given there stands for (resource-class.ts); the plugin, which receives a reference
   * (the resource's URN and id), does the same by this list, and its schema types these inputs
   * with the resource.
   */
  resourceInputs?: readonly ResourceInput[];
  /** How `etl-recover` finds the object a killed deployment's create made. */
  recover: RecoverDeclaration;
}

/** What the kind is in one line: its summary, or its description's first sentence. */
export function summaryOf(declaration: Pick<ResourceDeclaration, "summary" | "description">): string {
  return declaration.summary ?? /^.+?\.(?=\s|$)/.exec(declaration.description)?.[0] ?? declaration.description;
}

/** Keeps the literal kind and every detail of the declaration for the list's types. */
export function declareResource<const Kind extends string, const D extends ResourceDeclaration<Kind>>(declaration: D & { kind: Kind }): D {
  return declaration;
}
