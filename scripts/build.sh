#!/usr/bin/env bash
# `npm run build`: dist/ from scratch (a module renamed into a folder would otherwise leave its old
# file behind, which Node resolves first), the inputs' documentation for the plugin's schema, the
# plugin in one file, the committed TypeScript SDK and the policy pack. The SDK needs nothing of
# dist/, so it compiles beside the package, each compiler on a core of its own.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node -e "require('fs').rmSync('dist', { recursive: true, force: true })"
npm run --silent build:sdk &
sdk=$!
tsc -p tsconfig.json || { wait "$sdk" || true; exit 1; }
node --disable-warning=ExperimentalWarning scripts/field-docs.cts
node --disable-warning=ExperimentalWarning scripts/plugin-bundle.cts
wait "$sdk"
npm run --silent build:policy
