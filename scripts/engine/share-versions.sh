#!/usr/bin/env bash
# Brings every module that the other wrapper modules (the language hosts', the YAML host's, the
# SDK generator's) require and the engine's wrapper module (scripts/engine/go.mod) requires too to
# the engine's version, then tidies them. Go's build cache keys a compiled package by its source
# and its dependencies' compiled packages, so the set-up then compiles gRPC, protobuf, golang.org/x
# and the rest once for all its builds, not once per version. Pulumi's own modules
# (github.com/pulumi/...) keep the versions each wrapper builds (docs/development.md says why).
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
for wrapper in language-host yaml-host codegen; do
  dir="$ENGINE_MODULE_DIR/$wrapper"
  # Moving some modules can bring in others the engine has at another version: a few rounds.
  for round in 1 2 3 4; do
    mapfile -t moved < <(engine_versions "$dir")
    [ "${#moved[@]}" -gt 0 ] || break
    [ "$round" -lt 4 ] || die "$wrapper still differs from the engine in ${moved[*]}: a module it needs asks for a newer version than the engine's."
    say "$wrapper: ${moved[*]}"
    (cd "$dir" && GOTOOLCHAIN=local GOFLAGS=-mod=mod go get "${moved[@]}" && GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod tidy) ||
      die "moving $wrapper's modules to the engine's versions failed (see the go output above)."
  done
  say "$wrapper: every module it shares with the engine is at the engine's version"
done
