#!/usr/bin/env bash
# Moves each module that a wrapper module here (each folder with a go.mod: the language hosts',
# the YAML host's, the SDK generator's) shares with the engine's (scripts/engine/go.mod) to the
# engine's version, then tidies it. Go's build cache keys a compiled package by its source and its
# dependencies' compiled packages, so the set-up then compiles gRPC, protobuf, golang.org/x and the
# rest once for all its builds, not once per version. Pulumi's own modules (github.com/pulumi/...)
# keep the versions each wrapper builds (their go.mod files say why).
# Run it after moving any wrapper module's versions; test/unit/engine-modules.test.ts checks it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../go-build.sh"

# requirements GO_MOD: "module version" for each module the file requires.
requirements() {
  sed -n -e 's/^require \([^ (]*\) \(v[^ ]*\).*/\1 \2/p' -e 's/^\t\([^ ]*\) \(v[^ ]*\).*/\1 \2/p' "$1"
}

# engine_versions WRAPPER_DIR: "module@version" of each module WRAPPER_DIR shares with the
# engine's wrapper at another version, Pulumi's own apart.
engine_versions() {
  awk 'NR == FNR { engine[$1] = $2; next }
       $1 !~ /^github\.com\/pulumi\// && ($1 in engine) && engine[$1] != $2 { print $1 "@" engine[$1] }' \
    <(requirements "$ENGINE_MODULE_DIR/go.mod") <(requirements "$1/go.mod")
}

require_go "the wrapper modules' versions"
for go_mod in "$ENGINE_MODULE_DIR"/*/go.mod; do
  dir="$(dirname "$go_mod")" wrapper="$(basename "$(dirname "$go_mod")")"
  # Moving some modules can bring in others the engine has at another version: a few rounds.
  for _ in 1 2 3; do
    mapfile -t moved < <(engine_versions "$dir")
    [ "${#moved[@]}" -gt 0 ] || break
    say "$wrapper: ${moved[*]}"
    (cd "$dir" && export GOTOOLCHAIN=local GOFLAGS=-mod=mod && go get "${moved[@]}" && go mod tidy) ||
      die "moving $wrapper's modules to the engine's versions failed (see the go output above)."
  done
  still="$(engine_versions "$dir")"
  [ -z "$still" ] || die "$wrapper still differs from the engine in ${still//$'\n'/ }: a module it needs asks for a newer version than the engine's."
  say "$wrapper: every module it shares with the engine is at the engine's version"
done
