#!/usr/bin/env bash
# Prints the root of what programs in Python and Go, and the SDKs, need beside the engine:
#   bin/     the Python, Go and YAML language hosts (with the Python host's
#            `pulumi-language-python-exec` shim) and `pulumi-etl-codegen`, the SDK generator
#            (Pulumi's own code generators);
#   python/  a virtual environment holding the `pulumi` package of the engine's version, the
#            Python SDK's other dependencies, and what builds the SDK (setuptools, wheel, build).
# Built from the Go module proxy and PyPI into the cache, once per machine; each part only when
# it is missing. Go's build cache gets the Pulumi Go SDK compiled, for Go programs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/go-build.sh"
source "$(dirname "${BASH_SOURCE[0]}")/python-packages.sh"

hold_machine_cache languages
root="$LANGUAGES_CACHE"
bin="$root/bin"
venv="$root/python"
# The YAML host's release is stamped where it reads its version from; the folder's name does not
# carry it, so a stamp beside it does.
mkdir -p "$bin/.built"

# build_once PROGRAM MODULE_DIR PACKAGE VERSION [VERSION_VARIABLE]: builds bin/PROGRAM unless it
# is there, of VERSION (a program without a stamp is of the versions the folder is named after).
build_once() {
  local program="$1" module="$2" package="$3" version="$4" stamp="$bin/.built/$1"
  if [ -x "$bin/$program" ] && { [ ! -f "$stamp" ] || [ "$(cat "$stamp")" = "$version" ]; }; then return 0; fi
  require_go "$program"
  mkdir -p "$bin/.partial"
  build_binary "$module" "$package" "$version" "$bin/.partial/$program" "${5:-}"
  mv "$bin/.partial/$program" "$bin/$program"
  echo "$version" >"$stamp"
}

# The Python host runs programs through a shim script that ships beside it in the same module.
place_python_shim() {
  local module_dir
  [ -x "$bin/pulumi-language-python-exec" ] && return 0
  module_dir="$(cd "$ENGINE_MODULE_DIR/language-host" && GOTOOLCHAIN=local GOFLAGS=-mod=readonly go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)"
  install -m 0755 "$module_dir/python/cmd/pulumi-language-python-exec" "$bin/pulumi-language-python-exec"
}

make_python_environment() {
  local marker="$venv/$(python_environment_marker)"
  [ -f "$marker" ] && return 0
  command -v python3 >/dev/null || die "Python 3 is not installed." "Install Python 3.9 or newer (with its venv module), then run this again."
  local started=$SECONDS
  # An environment with the same pulumi is only completed: programs may be running from it.
  if ! compgen -G "$venv/.complete-$python_pulumi_version*" >/dev/null; then
    say "python: making a virtual environment with pulumi $python_pulumi_version from PyPI in $venv"
    rm -rf "$venv"
    python3 -m venv "$venv" || die "python3 -m venv failed." "Install Python's venv module (Debian: python3-venv), then run this again."
  else
    say "python: adding what is new in the list to $venv"
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${python_packages[@]}" ||
    die "installing pulumi $python_pulumi_version from PyPI failed (see pip's output above)."
  touch "$marker"
  say "python: ready in $(elapsed "$started")"
}

build_once pulumi-language-python "$ENGINE_MODULE_DIR/language-host" \
  github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python "$LANGUAGE_HOST_VERSION"
place_python_shim
build_once pulumi-language-go "$ENGINE_MODULE_DIR/language-host" \
  github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go "$LANGUAGE_HOST_VERSION"
build_once pulumi-language-yaml "$YAML_HOST_MODULE_DIR" \
  github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml "$YAML_HOST_VERSION" \
  github.com/pulumi/pulumi-yaml/pkg/version.Version
build_once pulumi-etl-codegen "$ENGINE_MODULE_DIR/codegen" pulumi-etl/codegen "$CODEGEN_VERSION"
# Go programs are compiled by the Go host before every operation: their first compile (the
# Pulumi Go SDK and its dependencies) happens here, once, into Go's own build cache.
warm_go_build_cache() {
  # The marker holds the flags the cache was warmed with: other flags warm it again.
  local marker="$root/.go-build-warm" started=$SECONDS
  [ "$(cat "$marker" 2>/dev/null)" = "$(go_compile_flags)" ] && return 0
  require_go "Go programs (the Pulumi Go SDK)"
  say "go: compiling the Pulumi Go SDK once for Go programs (examples/quickstart-go)"
  (
    cd "$REPO_ROOT/examples/quickstart-go"
    # The flags the tests' Go programs build with, so the compiled packages are reused.
    use_go_build_settings
    # The standard library is the language hosts' by now: the packages after it are counted.
    total="$(go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' . 2> >(report_downloads "go") | grep -c .)" || exit 1
    go build -v -o /dev/null . 2>&1 | report_build_progress "go" "$total" "$started"
  ) || die "compiling examples/quickstart-go failed (see the go output above)."
  go_compile_flags >"$marker"
  say "go: ready in $(elapsed "$started")"
}

make_python_environment
warm_go_build_cache
echo "$root"
