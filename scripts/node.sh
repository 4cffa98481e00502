#!/usr/bin/env bash
# Prints the directory of a Node.js >= 22 binary, installing one into the cache when the
# system's is older. The npm registry's `node` package ships real binaries, so this needs
# nothing beyond the registry that `npm install` already uses.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

system_node="$(command -v node || true)"
if [ -n "$system_node" ] && [ "$(node_major "$system_node")" -ge "$NODE_MIN_MAJOR" ]; then
  dirname "$system_node"
  exit 0
fi

hold_machine_cache node
prefix="$CACHE_ROOT/node-v$NODE_PINNED_VERSION"
bin="$prefix/node_modules/node/bin"
if [ ! -x "$bin/node" ] || [ "$(node_major "$bin/node")" -lt "$NODE_MIN_MAJOR" ]; then
  command -v npm >/dev/null ||
    die "Node.js $NODE_MIN_MAJOR or newer is needed and npm is not available to fetch it." \
      "Install Node.js $NODE_MIN_MAJOR (with npm) and run this again."
  say "system Node.js is $([ -n "$system_node" ] && "$system_node" --version || echo missing); installing Node.js $NODE_PINNED_VERSION into $prefix"
  mkdir -p "$CACHE_ROOT"
  staging="$(mktemp -d "$CACHE_ROOT/.node.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  npm install --prefix "$staging" --no-audit --no-fund --no-save --loglevel=error "node@$NODE_PINNED_VERSION" >&2 ||
    die "npm could not install node@$NODE_PINNED_VERSION." "Install Node.js $NODE_MIN_MAJOR or newer and run this again."
  [ "$(node_major "$staging/node_modules/node/bin/node")" -ge "$NODE_MIN_MAJOR" ] ||
    die "the downloaded Node.js does not run on this machine." "Install Node.js $NODE_MIN_MAJOR or newer and run this again."
  rm -rf "$prefix"
  mv "$staging" "$prefix"
  trap - EXIT
fi
echo "$bin"
