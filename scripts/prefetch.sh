#!/usr/bin/env bash
# Fetches, beside a first set-up's installs and builds, what its later steps would each stop to
# download: the Go modules the engine, the language hosts, the SDK generator and Go programs
# import, the Python environment's packages (into pip's cache), and the Node.js binaries the
# release's executables are made of. These wait on the network where the builds wait on the CPU.
# Only what the machine's cache lacks; nothing fails here: a step that still lacks something
# downloads it itself, and reports what goes wrong. scripts/setup.sh runs it in the background.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/go-build.sh"
source "$(dirname "${BASH_SOURCE[0]}")/python-packages.sh"

missing() { [ ! -e "$1" ]; }

fetch_go_modules() {
  command -v go >/dev/null || return 0
  if ! command -v pulumi >/dev/null && missing "$CACHE_ROOT/engine/$ENGINE_VERSION/bin/pulumi"; then
    fetch_imports "$ENGINE_MODULE_DIR" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
  fi
  missing "$LANGUAGES_CACHE/bin/pulumi-language-go" &&
    fetch_imports "$ENGINE_MODULE_DIR/language-host" github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go
  missing "$LANGUAGES_CACHE/bin/pulumi-language-yaml" &&
    fetch_imports "$YAML_HOST_MODULE_DIR" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
  missing "$LANGUAGES_CACHE/bin/pulumi-etl-codegen" && fetch_imports "$ENGINE_MODULE_DIR/codegen" pulumi-etl/codegen
  missing "$LANGUAGES_CACHE/.go-build-warm" && fetch_imports "$REPO_ROOT/examples/quickstart-go" .
  return 0
}

fetch_python_packages() {
  missing "$LANGUAGES_CACHE/python/$(python_environment_marker)" || return 0
  command -v python3 >/dev/null || return 0
  local scratch
  scratch="$(mktemp -d)"
  python3 -m pip download --quiet --disable-pip-version-check --dest "$scratch" "${python_packages[@]}" >/dev/null 2>&1
  rm -rf "$scratch"
}

fetch_node_binaries() {
  command -v node >/dev/null || return 0
  node -e 'require(process.argv[1]).fetchNodeBinaries()' "$REPO_ROOT/scripts/dist/sea.cts" >/dev/null 2>&1
}

fetch_go_modules &
fetch_python_packages &
fetch_node_binaries &
wait
exit 0
