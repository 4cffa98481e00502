# Builds Go programs from the Go module proxy, with progress lines. Sourced, not run.

elapsed() { local s=$((SECONDS - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# `go build -v` names each package as it compiles it: turn that into a line every 5 %.
report_build_progress() {
  local label="$1" total="$2" started="$3" done=0 step next
  step=$(((total + 19) / 20))
  next=$step
  while IFS= read -r line; do
    case "$line" in
      *:*) printf '%s\n' "$line" >&2 ;; # compiler diagnostics carry file:line
      *)
        done=$((done + 1))
        if [ "$done" -ge "$next" ]; then
          say "$label: compiled $done of about $total packages ($(elapsed "$started"))"
          next=$((next + step))
        fi
        ;;
    esac
  done
}

# `go` names every module it downloads: one line per 50 modules instead.
report_downloads() {
  local label="$1" count=0
  while IFS= read -r line; do
    case "$line" in
      "go: downloading "*)
        count=$((count + 1))
        [ $((count % 50)) -ne 0 ] || say "$label: downloaded $count modules"
        ;;
      *) printf '%s\n' "$line" >&2 ;;
    esac
  done
}

# require_go WHAT [ALTERNATIVE]: Go $GO_MIN_VERSION or newer (the wrapper module's `go` line, which
# Pulumi's own modules set) is needed to build WHAT; ALTERNATIVE, when given, is what spares the
# build (a Pulumi CLI already installed).
require_go() {
  local what="$1" alternative="${2:-}" instead=""
  [ -z "$alternative" ] || instead=", or $alternative"
  command -v go >/dev/null ||
    die "Go is not installed, and it is needed to build $what." "Install Go $GO_MIN_VERSION or newer$instead, then run this again."
  version_at_least "$(go env GOVERSION | sed 's/^go//')" "$GO_MIN_VERSION" ||
    die "Go $(go env GOVERSION) is too old to build $what." "Install Go $GO_MIN_VERSION or newer$instead, then run this again."
}

# Go of this machine only, and only the versions the module's go.sum pins.
use_go_module_settings() { export GOTOOLCHAIN=local GOFLAGS="-mod=readonly -buildvcs=false"; }

# The compile flags of every Go build here, cgo off in each: the set-up's programs, the warm-up of
# the Pulumi Go SDK and the tests' Go programs (test/support/go-flags.mts reads the same file).
# Go's build cache keys a package by its flags, so with one set they share the packages they have
# in common: the standard library and 185 of the Go SDK's other 515 packages.
# The programs are linked without debugging information (-s -w), so the compiler writes none
# either (-dwarf=false): 5 to 8 % of a build's CPU (the Go host from an empty cache: 89 s to 84 s).
# Each compiler process compiles its package's functions on one thread (-c=1): the go command
# already compiles a package per core, and the compiler's own concurrency costs 8 % more CPU
# (the SDK generator from an empty cache: 161 s, 148 s with it) for a build no shorter here.
# The file is in GOFLAGS's form (a value holding a space is quoted), so builds take it there.
go_compile_flags() { cat "$ENGINE_MODULE_DIR/go-compile-flags"; }

# The settings of every Go build of the set-up: the module settings, the shared compile flags,
# cgo off, and GOGC=off: a compiler process lives seconds and stays far below the limit, where a
# collector would spend a fifth of the build's CPU (the YAML host: 160 s of CPU, 128 s without it).
use_go_build_settings() {
  use_go_module_settings
  export GOFLAGS="$GOFLAGS $(go_compile_flags)" CGO_ENABLED=0 GOGC=off GOMEMLIMIT=2GiB
}

# cold_package_flags FILE: for each package pattern FILE lists, the shared compile flags with
# -N -l (no optimisation, no inlining), in GOFLAGS's form. The go command applies, to a package,
# the last -gcflags whose pattern it matches, so these follow the shared ones.
cold_package_flags() {
  local shared pattern
  shared="$(go_compile_flags | sed -n 's/.*"-gcflags=all=\([^"]*\)".*/\1/p')"
  [ -n "$shared" ] || die "scripts/engine/go-compile-flags has no \"-gcflags=all=...\" for $1's packages to follow."
  grep -v '^#' "$1" | while read -r pattern; do
    [ -z "$pattern" ] || printf ' "-gcflags=%s=%s -N -l"' "$pattern" "$shared"
  done
}

# fetch_imports MODULE_DIR PACKAGE: downloads the modules PACKAGE imports, as build_binary's first
# step does, quietly: a failure is left for that step to report.
fetch_imports() {
  (cd "$1" && use_go_module_settings && CGO_ENABLED=0 go list -deps "$2" >/dev/null 2>&1) || true
}

# The variable Pulumi's own programs read their version from.
PULUMI_VERSION_VARIABLE=github.com/pulumi/pulumi/sdk/v3/go/common/version.Version

# build_binary MODULE_DIR PACKAGE VERSION OUTPUT [VERSION_VARIABLE]: a static build of PACKAGE
# with VERSION stamped into VERSION_VARIABLE (Pulumi's by default), resolved through the wrapper
# module whose go.sum pins every dependency. The packages the module folder's `cold-packages`
# lists, if it has one, are compiled without optimisation (cold_package_flags).
build_binary() {
  local module="$1" package="$2" version="$3" output="$4" variable="${5:-$PULUMI_VERSION_VARIABLE}"
  local started=$SECONDS total label
  label="$(basename "$output") $version"
  (
    cd "$module"
    use_go_build_settings
    if [ -f cold-packages ]; then GOFLAGS="$GOFLAGS$(cold_package_flags cold-packages)" || exit 1; fi
    # Only what the build imports: the proxy refuses the .info of some pseudo-versions that
    # `go mod download` (all modules) would ask for, while .mod and .zip are served.
    say "$label: downloading the modules it imports"
    total="$(go list -deps "$package" 2> >(report_downloads "$label") | wc -l)" || exit 1
    say "$label: compiling about $total packages ($(elapsed "$started"))"
    go build -v \
      -ldflags "-s -w -X $variable=$version" \
      -o "$output" "$package" 2>&1 | report_build_progress "$label" "$total" "$started"
  ) || die "building $label failed (see the go output above)."
  say "$label: built in $(elapsed "$started")"
}
