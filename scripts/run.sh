#!/usr/bin/env bash
# The README's commands: `npm run quickstart` and `npm test` both come here, so a fresh machine
# needs nothing installed by hand.
set -euo pipefail
task="${1:-}"
shift || true
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$REPO_ROOT"
case "$task" in
  quickstart) exec node --disable-warning=ExperimentalWarning scripts/quickstart.cts "$@" ;;
  test) exec npx --no-install vitest run "$@" ;;
  *) die "unknown task '$task'" "usage: bash scripts/run.sh quickstart|test [args]" ;;
esac
