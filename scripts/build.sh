#!/usr/bin/env bash
# `npm run build`: dist/, the inputs' documentation for the plugin's schema, the plugin in one
# file, the committed TypeScript SDK (sdk/nodejs/bin) and the policy pack (policy/bin); the SDK
# needs nothing of dist/, so it compiles beside the package, each compiler on a core of its own.
# `bash scripts/build.sh sdk|policy` compiles only that one (`npm run build:sdk`, `build:policy`).
#
# Each is compiled incrementally: TypeScript's record of its last compile (<output>/.tsbuildinfo)
# lives beside the outputs, so deleting the folder starts over. A clone with no outputs starts
# from this machine's last build, so it compiles only the files that differ from that one (a
# fresh clone of a commit like the last: the package's 22 s of CPU to about 4 s). Outputs whose
# source is gone are removed, as a compile from scratch would have none: a module renamed into a
# folder would otherwise leave its old file behind, which Node resolves first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"
LAST_BUILD="$CACHE_ROOT/build/last"
OUTPUTS=(dist sdk/nodejs/bin policy/bin)

start_from_last_build() {
  local output="$1"
  [ -f "$output/.tsbuildinfo" ] && return 0
  rm -rf "$output"
  if [ -f "$LAST_BUILD/$output/.tsbuildinfo" ]; then
    mkdir -p "$(dirname "$output")"
    cp -a "$LAST_BUILD/$output" "$output"
  fi
}

# Each output names its source: <output>/<path>.js, .js.map, .d.ts and .d.ts.map come from <sources>/<path>.ts.
remove_outputs_without_source() {
  local output="$1" sources="$2" file source
  while IFS= read -r -d '' file; do
    source="${file#"$output"/}"
    source="${source%.map}"
    source="${source%.d.ts}"
    source="${source%.js}"
    [ -f "$sources/$source.ts" ] || rm -f "$file"
  done < <(find "$output" -type f \( -name '*.js' -o -name '*.map' -o -name '*.d.ts' \) -print0)
  find "$output" -type d -empty -delete
}

# compile TSCONFIG OUTPUT SOURCES: the project of TSCONFIG into OUTPUT, its sources under SOURCES.
compile() {
  local tsconfig="$1" output="$2" sources="$3"
  start_from_last_build "$output"
  # Explicitly: a caller's `||` turns off `set -e` inside the function.
  tsc -p "$tsconfig" --incremental --tsBuildInfoFile "$output/.tsbuildinfo" || return
  remove_outputs_without_source "$output" "$sources"
}

compile_sdk() {
  compile sdk/nodejs/tsconfig.json sdk/nodejs/bin sdk/nodejs
  cp sdk/nodejs/package.json sdk/nodejs/bin/package.json
}

compile_policy() { compile policy/tsconfig.json policy/bin policy; }

# A copy of the three for the next clone, swapped in whole, so that a clone starting at the same
# time reads one build or the other; the two newest are kept.
keep_for_next_clone() {
  local builds="$CACHE_ROOT/build" copy output
  mkdir -p "$builds"
  copy="$(mktemp -d "$builds/build.XXXXXX")"
  for output in "${OUTPUTS[@]}"; do
    mkdir -p "$copy/$(dirname "$output")"
    cp -a "$output" "$copy/$output"
  done
  ln -sfn "$(basename "$copy")" "$builds/.last.$$"
  mv -T "$builds/.last.$$" "$LAST_BUILD"
  (cd "$builds" && ls -dt build.* | tail -n +3 | xargs -r rm -rf)
}

case "${1:-all}" in
  sdk) compile_sdk ;;
  policy) compile_policy ;;
  all)
    compile_sdk &
    sdk=$!
    compile tsconfig.json dist . || { wait "$sdk" || true; exit 1; }
    node --disable-warning=ExperimentalWarning scripts/field-docs.cts
    node --disable-warning=ExperimentalWarning scripts/plugin-bundle.cts
    wait "$sdk"
    compile_policy
    keep_for_next_clone
    ;;
  *) die "unknown part '$1'" "usage: bash scripts/build.sh [all|sdk|policy]" ;;
esac
