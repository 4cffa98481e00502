import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Real-engine tests each start an engine and a provider process; two cores fit two files.
    maxWorkers: 2,
    server: {
      deps: {
        // Programs use the compiled package exactly as a user's would, through node_modules/pulumi-etl.
        external: [/\/dist\//],
      },
    },
  },
});
