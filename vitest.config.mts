import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that take 15 s or more start first, longest first (their order as last timed, in a
 * fresh clone on 2 cores), so none of them is left running alone at the end while the other
 * workers idle; the run then ends on the many short ones. Vitest's own order (largest file
 * first) once started a long file last, and a run ended with one file on one core.
 */
const FIRST = [
  "test/release/templates.test.ts",
  "test/release/typescript.test.ts",
  "test/release/go.test.ts",
  "test/languages/account-export.test.ts",
  "test/engine/examples.test.ts",
  "test/engine/batched-reads.test.ts",
  "test/engine/recover.test.ts",
  "test/kinds/job-run/engine.test.ts",
  "test/engine/account-export.test.ts",
  "test/languages/examples.test.ts",
  "test/engine/replace.test.ts",
  "test/engine/soak.test.ts",
  "test/release/python.test.ts",
  "test/kinds/cluster/engine.test.ts",
  "test/release/etl.test.ts",
  "test/release/policy.test.ts",
  "test/engine/outages.test.ts",
  "test/kinds/delivery/engine.test.ts",
  "test/engine/interrupted.test.ts",
  "test/engine/unreachable.test.ts",
  "test/engine/plugin-import.test.ts",
  "test/kinds/package/empty.test.ts",
  "test/engine/pipeline.test.ts",
  "test/kinds/package/engine.test.ts",
  "test/engine/policy.test.ts",
  "test/engine/yaml-guards.test.ts",
  "test/engine/resource-references.test.ts",
  "test/kinds/connection-group/engine.test.ts",
  "test/kinds/cluster-watcher/engine.test.ts",
  "test/kinds/user-settings/engine.test.ts",
  "test/engine/cancellation.test.ts",
  "test/kinds/connection/engine.test.ts",
  "test/engine/engine-facts.test.ts",
  "test/sdk/reference-examples.test.ts",
  "test/engine/recover-accounts.test.ts",
  "test/languages/python.test.ts",
  "test/engine/collisions.test.ts",
  "test/kinds/delivery/waits.test.ts",
  "test/kinds/member/engine.test.ts",
  "test/kinds/schedule/engine.test.ts",
  "test/kinds/public-key/engine.test.ts",
  "test/engine/plugin-providers.test.ts",
  "test/kinds/hook/engine.test.ts",
  "test/unit/pipeline-cron.test.ts",
  "test/kinds/account/engine.test.ts",
  "test/engine/promote-pipeline.test.ts",
  "test/kinds/package/template.test.ts",
  "test/release/yaml.test.ts",
  "test/engine/bad-input-dynamic.test.ts",
  "test/engine/stored-state.test.ts",
  "test/engine/batched-reads-alone.test.ts",
  "test/kinds/public-key/owner.test.ts",
  "test/engine/bad-input-plugin.test.ts",
  "test/engine/errors.test.ts",
  "test/languages/account-per-environment.test.ts",
  "test/engine/plugin-lifecycle.test.ts",
];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = FIRST.findIndex((name) => spec.moduleId.endsWith(name));
      return index === -1 ? FIRST.length : index;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A process a test started and left running fails the run when it ends; the tests' stacks
    // keep their secrets with the run's transit key.
    globalSetup: ["test/support/leftover-processes.ts", "test/support/secrets-transit.ts", "test/support/go-module-cache.ts"],
    // The SDK's stack texts for the inline programs' promises, unmapped (promise-stacks.ts); each
    // file's CPU, for `npm run bench:test-cpu` (file-cpu.ts, idle unless it asks).
    setupFiles: ["test/support/promise-stacks.ts", "test/support/file-cpu.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Real-engine tests each start an engine and a provider process, and spend much of their time
    // waiting on them, on retries and on the emulator's clock: with two files at a time a
    // run kept 1.6 of 2 cores busy. A third file fills what the waits leave.
    maxWorkers: 3,
    // Each worker runs its files one after another in one process, loading the engine's SDK, the
    // package and the emulator once rather than for every file: half the CPU of the unit and
    // emulator files. What a file changes it undoes in its own hooks.
    isolate: false,
    sequence: { sequencer: LongFilesFirst },
    server: {
      deps: {
        // Programs use the compiled package exactly as a user's would, through node_modules/pulumi-etl.
        external: [/\/dist\//],
      },
    },
  },
});
