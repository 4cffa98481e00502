/**
 * One kind's declaration, loading that kind's folder alone. A dynamic provider process serves the
 * kinds of one program's resources, started anew for every operation: loading all thirteen kinds
 * to serve one or two cost it about 60 ms of CPU. Each kind lives in `<kind-in-kebab-case>/` and
 * exports `<kindInCamelCase>Declaration` (test/unit/declaration-of.test.ts holds every kind of the
 * registry to it).
 */
import type { ResourceDeclaration } from "./shared/declaration";

const folderOf = (kind: string) => kind.replace(/(?<=[a-z])(?=[A-Z])/g, "-").toLowerCase();
const exportOf = (kind: string) => `${kind[0]!.toLowerCase()}${kind.slice(1)}Declaration`;

/** The declaration of `kind`, or undefined for a name that is no kind of this package. */
export function declarationOf(kind: string): ResourceDeclaration | undefined {
  if (!/^[A-Z][A-Za-z]*$/.test(kind)) return undefined;
  const path = `./${folderOf(kind)}/declaration`;
  let module: Record<string, ResourceDeclaration | undefined>;
  try {
    module = require(path) as Record<string, ResourceDeclaration | undefined>;
  } catch (error) {
    // No such folder; a module the kind's own code misses is a broken install, and says so.
    if ((error as { code?: string }).code === "MODULE_NOT_FOUND" && String((error as Error).message).includes(`'${path}'`)) return undefined;
    throw error;
  }
  const declaration = module[exportOf(kind)];
  return declaration?.kind === kind ? declaration : undefined;
}
