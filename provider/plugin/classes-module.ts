/**
 * The text of `provider/resources/classes.ts`, the class of each kind of the registry, which
 * `npm run docs` writes and a test holds to the registry. The classes live apart from the
 * declarations so that the plugin, which reads the declarations, never loads `@pulumi/pulumi`'s
 * program runtime (its executable starts without it).
 */
import { RESOURCES, RESOURCE_KINDS, type ResourceDeclaration } from "../resources/registry";
import { summaryOf } from "../resources/shared/declaration";

/** `ClusterWatcher` → `cluster-watcher`: the kind's folder under provider/resources. */
export function kindFolder(kind: string): string {
  return kind.replace(/(?<=[a-z])(?=[A-Z])/g, "-").toLowerCase();
}

export function classesModuleText(): string {
  const imports = RESOURCE_KINDS.map((kind) => `import type { ${kind}Args, ${kind}Outputs } from "./${kindFolder(kind)}/declaration";`);
  const classes = RESOURCE_KINDS.map((kind) =>
    [
      `/** ${summaryOf(RESOURCES[kind] as ResourceDeclaration).replaceAll("*/", "* /")} See the reference page for ${kind}. */`,
      `export const ${kind} = resourceClass<${kind}Args, ${kind}Outputs>(RESOURCES.${kind});`,
      `export type ${kind} = InstanceType<typeof ${kind}>;`,
    ].join("\n"),
  );
  return [
    "/**",
    " * The class programs instantiate for each kind, made from its declaration. Written by",
    " * `npm run docs` from the registry (provider/plugin/classes-module.ts): do not edit.",
    " */",
    ...imports,
    'import { RESOURCES } from "./registry";',
    'import { resourceClass } from "./shared/resource-class";',
    "",
    classes.join("\n\n"),
    "",
  ].join("\n");
}
