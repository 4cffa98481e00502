#!/usr/bin/env bash
# The commands of docs/development.md: `npm run quickstart`, `npm test` and `npm run bench` all come here, so a fresh machine
# needs nothing installed by hand.
set -euo pipefail
task="${1:-}"
shift || true
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$REPO_ROOT"
# The environment of the tests (`npm test`, `npm run bench:test-cpu`).
use_test_environment() {
  # Every test starts engines, and every engine operation a Node.js provider process (the dynamic
  # resources' loads @pulumi/pulumi anew): Node.js's compile cache spares them compiling the same
  # modules again (a preview's CPU: 1.1 to 0.8 s on the plugin, 1.7 to 1.1 s on the dynamic
  # resources). Behaviour is the same with or without it.
  export NODE_COMPILE_CACHE="$LOCAL_ROOT/node-compile-cache"
  # The engine, its language hosts and Go's tools are Go programs that live seconds: Go's garbage
  # collector, left to run only as a process nears 2 GiB of heap, costs them nothing (the CLI's
  # own CPU a third less for a `stack export`, the CPU of engine tests 4 % less). Behaviour is the
  # same with or without it.
  export GOGC=off GOMEMLIMIT=2GiB
}

case "$task" in
  quickstart) exec node --disable-warning=ExperimentalWarning scripts/quickstart.cts "$@" ;;
  bench) exec node --disable-warning=ExperimentalWarning bench/limits.mts "$@" ;;
  profile) exec node --disable-warning=ExperimentalWarning bench/profile.mts "$@" ;;
  test-cpu)
    use_test_environment
    exec node --disable-warning=ExperimentalWarning bench/test-cpu.mts "$@"
    ;;
  test)
    # Formatting, lint rules and dead exports, and the types of the tests and scripts (vitest runs
    # them without checking types), beside the release's build, which leaves a core idle while it
    # waits on tar: a violation fails the run before any test starts.
    npm run --silent lint &
    lint=$!
    # The type check starts from what the last one on this machine found of the files it reads
    # (TypeScript's incremental information, which checks again every file that changed and every
    # file that depends on one): a fresh clone of a commit like the last one checks in seconds.
    mkdir -p "$LOCAL_ROOT" "$CACHE_ROOT/typecheck"
    cp "$CACHE_ROOT/typecheck/typecheck.tsbuildinfo" "$LOCAL_ROOT/typecheck.tsbuildinfo" 2>/dev/null || true
    (npm run --silent typecheck && cp "$LOCAL_ROOT/typecheck.tsbuildinfo" "$CACHE_ROOT/typecheck/.typecheck.$$" &&
      mv "$CACHE_ROOT/typecheck/.typecheck.$$" "$CACHE_ROOT/typecheck/typecheck.tsbuildinfo") &
    typecheck=$!
    # The tests under test/release install what a user installs: the release, made anew each run.
    dist=0
    node --disable-warning=ExperimentalWarning scripts/dist/main.cts >&2 || dist=$?
    wait "$lint" || { wait "$typecheck" || true; echo "0 passed, 1 failed (npm run lint found violations)"; exit 1; }
    wait "$typecheck" || { echo "0 passed, 1 failed (npm run typecheck found errors)"; exit 1; }
    [ "$dist" -eq 0 ] || { echo "0 passed, 1 failed (npm run dist failed)"; exit 1; }
    use_test_environment
    # Besides vitest's own report, end with the plain "N passed, N failed" line CI reads.
    results="$LOCAL_ROOT/test-results.json"
    rm -f "$results"
    status=0
    npx --no-install vitest run --reporter=default --reporter=json --outputFile.json="$results" "$@" || status=$?
    # A run can fail outside its tests (an unhandled error, a process a test started outliving the
    # run): that counts as one failure, named.
    node -e '
      const r = require(process.argv[1]);
      const outside = process.argv[2] !== "0" && r.numFailedTests === 0;
      const failed = outside ? `1 failed` : `${r.numFailedTests} failed`;
      const note = outside ? " (the run failed outside its tests: see above)" : "";
      console.log(`${r.numPassedTests} passed, ${failed}, ${r.numPendingTests + r.numTodoTests} skipped${note}`);
    ' "$results" "$status" || echo "0 passed, 1 failed (the test run produced no results)"
    exit "$status"
    ;;
  *) die "unknown task '$task'" "usage: bash scripts/run.sh quickstart|test|test-cpu|bench|profile [args]" ;;
esac
