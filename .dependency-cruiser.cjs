/**
 * The architecture's boundaries, each a rule `npm run lint` enforces before any test runs.
 * Type-only imports count: a cycle of types is still a cycle to read.
 */
const KIND = "^provider/resources/(?!shared/)([^/]+)/";
const AREA = "^emulator/areas/([^/]+)/";

module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "Modules form no circle, type imports included.",
      severity: "error",
      from: { path: "^(provider|emulator|contract|policy)/" },
      to: { circular: true },
    },
    {
      name: "provider-not-emulator",
      comment: "The provider talks to the service over HTTP only: it imports nothing of the emulator.",
      severity: "error",
      from: { path: "^(provider|policy)/" },
      to: { path: "^emulator/" },
    },
    {
      name: "emulator-not-provider",
      comment: "The emulator is a copy of the service, and knows nothing of the provider.",
      severity: "error",
      from: { path: "^emulator/" },
      to: { path: "^(provider|policy)/" },
    },
    {
      name: "contract-is-a-leaf",
      comment: "What both sides agree on imports neither side.",
      severity: "error",
      from: { path: "^contract/" },
      to: { path: "^(provider|emulator|policy|test|bench|scripts)/" },
    },
    {
      name: "area-through-interface",
      comment: "An area of the emulator reaches another area only through that area's interface.ts.",
      severity: "error",
      from: { path: AREA },
      to: { path: "^emulator/areas/[^/]+/", pathNot: ["^emulator/areas/$1/", "^emulator/areas/[^/]+/interface\\.ts$"] },
    },
    {
      name: "kind-not-another-kind",
      comment: "A resource kind imports no other kind: what kinds share lives in provider/resources/shared.",
      severity: "error",
      from: { path: KIND },
      to: { path: "^provider/resources/(?!shared/)[^/]+/", pathNot: ["^provider/resources/$1/"] },
    },
    {
      name: "tests-not-dist",
      comment: "Tests import the sources; programs reach the compiled package as users do, through pulumi-etl. (Benchmarks measure the compiled code.)",
      severity: "error",
      from: { path: "^test/" },
      // A relative path into dist/; `pulumi-etl` resolves there too, as it does for a user.
      to: { path: "^dist/", dependencyTypes: ["local"] },
    },
  ],
  options: {
    // dist/ is not followed but stays in the graph, so an import of it is seen.
    doNotFollow: { path: ["node_modules", "^dist/"] },
    exclude: { path: "(^|/)(node_modules|sdk|\\.work|\\.pulumi-local)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
