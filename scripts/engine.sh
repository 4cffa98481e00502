#!/usr/bin/env bash
# Prints the root of a Pulumi engine, for PulumiCommand.get({ root }) and for PATH. Its bin/ holds
# `pulumi` and the Node.js language host `pulumi-language-nodejs` (for programs run from a
# directory); scripts/setup.sh adds the dynamic-provider plugin from the npm packages.
#
# A `pulumi` on PATH is used when it is v3 and at least the oldest version the project supports
# (the tests are proven on the pinned one). Otherwise the CLI and the language host are built
# from the Go module proxy through the wrapper modules in scripts/engine (whose go.sum files pin
# every dependency), version-stamped, into the cache, once per machine.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/go-build.sh"

cli_version() { "$1" version 2>/dev/null | head -n1 | tr -d '[:space:]'; }

use_cli_from_path() {
  local found version root
  found="$(command -v pulumi || true)"
  [ -n "$found" ] || return 1
  version="$(cli_version "$found")"
  case "$version" in v3.*) ;; *) return 1 ;; esac
  version_at_least "$version" "$PULUMI_CLI_FLOOR" || {
    say "ignoring $found: $version is older than $PULUMI_CLI_FLOOR, the oldest this project supports"
    return 1
  }
  root="$LOCAL_ROOT/engine"
  mkdir -p "$root/bin"
  ln -sf "$found" "$root/bin/pulumi"
  if [ "$version" = "$ENGINE_VERSION" ]; then
    say "using $found ($version)"
  else
    say "using $found ($version; the tests are proven on $ENGINE_VERSION)"
  fi
  echo "$root"
}

build_engine() {
  local root="$1" staging
  require_go "the Pulumi CLI" "the Pulumi CLI $PULUMI_CLI_FLOOR or newer (v3) on PATH"
  say "building the Pulumi engine from the Go module proxy into $root"
  say "this happens once per machine and takes 5 to 20 minutes on 2 cores"
  mkdir -p "$(dirname "$root")"
  staging="$(mktemp -d "$root.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  mkdir -p "$staging/bin"
  build_binary "$ENGINE_MODULE_DIR" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi \
    "$ENGINE_VERSION" "$staging/bin/pulumi"
  build_binary "$ENGINE_MODULE_DIR/language-host" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs \
    "$LANGUAGE_HOST_VERSION" "$staging/bin/pulumi-language-nodejs"
  [ "$(cli_version "$staging/bin/pulumi")" = "$ENGINE_VERSION" ] ||
    die "the built CLI does not report version $ENGINE_VERSION."
  rm -rf "$root"
  mv "$staging" "$root"
  trap - EXIT
}

use_cli_from_path && exit 0

hold_machine_cache engine
root="$CACHE_ROOT/engine/$ENGINE_VERSION"
if [ "$(cli_version "$root/bin/pulumi" || true)" != "$ENGINE_VERSION" ] || [ ! -x "$root/bin/pulumi-language-nodejs" ]; then
  build_engine "$root"
fi
echo "$root"
