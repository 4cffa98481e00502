# Shared settings for the set-up scripts. Sourced, not run.
# Everything built or downloaded lives in one cache outside the work tree, so later runs, other
# clones and CI on the same machine reuse it; the Pulumi state lives in an ignored folder here.

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_ROOT="${PULUMI_ETL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-etl}"
LOCAL_ROOT="$REPO_ROOT/.pulumi-local"

# Node.js: @pulumi/pulumi 3.276 declares node >= 22.
NODE_MIN_MAJOR=22
NODE_PINNED_VERSION=22.23.3

# The engine version is the one the wrapper module pins; keep that file the single source.
ENGINE_MODULE_DIR="$REPO_ROOT/scripts/engine"
# required_version GO_MOD MODULE: the version a go.mod requires of MODULE.
required_version() {
  grep -oE "$2 v[0-9]+\.[0-9]+\.[0-9]+" "$1" | head -n1 | cut -d' ' -f2
}
ENGINE_VERSION="$(required_version "$ENGINE_MODULE_DIR/go.mod" github.com/pulumi/pulumi/pkg/v3)"
LANGUAGE_HOST_VERSION="$(required_version "$ENGINE_MODULE_DIR/language-host/go.mod" github.com/pulumi/pulumi/sdk/v3)"
# The SDK generator's own release (its go.mod says why it is not the engine's).
CODEGEN_VERSION="$(required_version "$ENGINE_MODULE_DIR/codegen/go.mod" github.com/pulumi/pulumi/pkg/v3)"
# The YAML language host comes from a release of its own, which its wrapper module pins.
YAML_HOST_MODULE_DIR="$ENGINE_MODULE_DIR/yaml-host"
YAML_HOST_VERSION="$(required_version "$YAML_HOST_MODULE_DIR/go.mod" github.com/pulumi/pulumi-yaml)"
# Where scripts/languages.sh builds the language hosts, the SDK generator and the Python environment.
LANGUAGES_CACHE="$CACHE_ROOT/languages/$LANGUAGE_HOST_VERSION-$ENGINE_VERSION"
# The oldest Pulumi CLI everything here works with (the policy pack's executable needs it; the
# plugin and SDKs need less): docs/installation-configuration.md#pulumi-cli-versions says why.
PULUMI_CLI_FLOOR=v3.255.0
# The Go that builds them: the engine module's `go` line, which follows Pulumi's own.
GO_MIN_VERSION="$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$ENGINE_MODULE_DIR/go.mod")"

say() { printf '[setup] %s\n' "$*" >&2; }
die() {
  printf '[setup] error: %s\n' "$1" >&2
  shift
  for line in "$@"; do printf '[setup]   %s\n' "$line" >&2; done
  exit 1
}

# hold_machine_cache PART: until the calling script exits, no other set-up on this machine builds
# PART into the cache (two clones' `npm test` at once would build the same programs into the same
# places); one clone's parts (the engine, the language hosts, Node.js) build beside each other.
# Without flock (macOS) the builds still land by rename, and a rare race stays possible.
hold_machine_cache() {
  command -v flock >/dev/null || return 0
  mkdir -p "$CACHE_ROOT"
  exec 9>"$CACHE_ROOT/.setup-$1.lock"
  flock -n 9 || { say "waiting for another set-up on this machine to finish building $1 into $CACHE_ROOT"; flock 9; }
}

# Semantic version "a.b.c" >= "x.y.z" (leading "v" ignored).
version_at_least() {
  local have="${1#v}" want="${2#v}"
  [ "$(printf '%s\n%s\n' "$want" "$have" | sort -V | head -n1)" = "$want" ]
}

[ -n "$ENGINE_VERSION" ] && [ -n "$LANGUAGE_HOST_VERSION" ] && [ -n "$CODEGEN_VERSION" ] && [ -n "$GO_MIN_VERSION" ] ||
  die "cannot read the pinned engine versions from $ENGINE_MODULE_DIR"
