#!/usr/bin/env bash
# Sets up everything the project needs on this machine: Node.js 22, the npm dependencies, the
# compiled package and the Pulumi engine. Run it, or source it to also get the environment
# (PATH and the offline Pulumi settings) in the current shell.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The Go builds first (on a machine set up before, they end at once): on a new machine they are
# most of the set-up's CPU, and they start while Node.js and the npm packages download, where the
# cores would otherwise wait on the network. The engine (scripts/engine.sh) and the language hosts,
# the SDK generator, a Python environment with pulumi and the Go SDK's first compile
# (scripts/languages.sh) build beside each other and beside the package: a Go build leaves a core
# idle while it links or waits on its largest packages, and pip on the network; the two share few
# packages (other versions of Pulumi's modules).
mkdir -p "$LOCAL_ROOT"
bash "$REPO_ROOT/scripts/languages.sh" >"$LOCAL_ROOT/.languages-root" &
languages=$!
bash "$REPO_ROOT/scripts/engine.sh" >"$LOCAL_ROOT/.engine-root" &
engine=$!

export PATH="$(bash "$REPO_ROOT/scripts/node.sh"):$PATH"
say "node $(node --version), npm $(npm --version)"

# `npm ci` only when the lock file changed since the last install: it wipes node_modules.
lock_stamp="$REPO_ROOT/node_modules/.setup-lock.sha256"
lock_hash="$(sha256sum "$REPO_ROOT/package-lock.json" | cut -d' ' -f1)"
if [ "$(cat "$lock_stamp" 2>/dev/null || true)" != "$lock_hash" ]; then
  # A clone of the same lock file takes a copy of the packages the first install on this machine
  # kept (3 s, where `npm ci` takes 12 s and twice the CPU); the copy is made before anything reads it.
  installed_packages="$CACHE_ROOT/node-modules/$lock_hash-node$(node -p 'process.versions.node')"
  rm -rf "$REPO_ROOT/node_modules"
  if [ -d "$installed_packages/node_modules" ]; then
    say "npm dependencies from this machine's copy of package-lock.json's install"
    cp -a "$installed_packages/node_modules" "$REPO_ROOT/node_modules"
  else
    say "installing npm dependencies"
    (cd "$REPO_ROOT" && npm ci --no-audit --no-fund --loglevel=error >&2)
    mkdir -p "$CACHE_ROOT"
    staging="$(mktemp -d "$CACHE_ROOT/.node-modules.XXXXXX")"
    cp -a "$REPO_ROOT/node_modules" "$staging/node_modules"
    mkdir -p "$(dirname "$installed_packages")"
    mv -T "$staging" "$installed_packages" 2>/dev/null || rm -rf "$staging"
    # The three latest lock files' installs are kept (about 340 MB each).
    (cd "$(dirname "$installed_packages")" && ls -t | tail -n +4 | xargs -r rm -rf)
  fi
  echo "$lock_hash" >"$lock_stamp"
fi

# What the later steps would each stop to download (the Go builds after the first, pip, the
# release), fetched while the package compiles (not beside npm's install, which waits on the
# network too); on a machine set up before, nothing is missing and it ends at once.
bash "$REPO_ROOT/scripts/prefetch.sh" &
prefetch=$!

say "compiling the package"
# Incrementally, from this machine's last build when dist/ is new (scripts/build.sh says how no
# output of a removed source stays behind). The build also collects the inputs' documentation for
# the plugin's schema.
(cd "$REPO_ROOT" && npm run --silent build >&2)

# The dynamic-provider plugin is a small script that ships with @pulumi/pulumi; the engine finds
# it on PATH or beside `pulumi`, and would otherwise try to download it.
place_dynamic_plugin() {
  local plugin="$REPO_ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
  [ -f "$plugin" ] || die "$plugin is missing." "Run 'npm ci' first, then run this again."
  cp "$plugin" "$1/pulumi-resource-pulumi-nodejs"
  chmod +x "$1/pulumi-resource-pulumi-nodejs"
}

# A failed engine build waits for the language hosts' to end, so none is left building.
wait "$engine" || { wait "$languages" || true; exit 1; }
PULUMI_ETL_ENGINE_ROOT="$(cat "$LOCAL_ROOT/.engine-root")"
export PULUMI_ETL_ENGINE_ROOT
place_dynamic_plugin "$PULUMI_ETL_ENGINE_ROOT/bin"
export PATH="$PULUMI_ETL_ENGINE_ROOT/bin:$PATH"

wait "$languages"
PULUMI_ETL_LANGUAGES_ROOT="$(cat "$LOCAL_ROOT/.languages-root")"
export PULUMI_ETL_LANGUAGES_ROOT
export PATH="$PULUMI_ETL_LANGUAGES_ROOT/bin:$PATH"
# Nothing of the set-up is left running when it is done (the release's build reads what it fetched).
wait "$prefetch" || true

# Offline, local operation: a file backend in an ignored folder, passphrase-encrypted secrets,
# no update check and no plugin downloads.
mkdir -p "$LOCAL_ROOT/home" "$LOCAL_ROOT/backend"
export PULUMI_HOME="${PULUMI_HOME:-$LOCAL_ROOT/home}"
export PULUMI_BACKEND_URL="${PULUMI_BACKEND_URL:-file://$LOCAL_ROOT/backend}"
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
if [ -z "${PULUMI_CONFIG_PASSPHRASE:-}" ] && [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then
  # Only protects stacks in the local backend above; real stacks bring their own.
  export PULUMI_CONFIG_PASSPHRASE="pulumi-etl-local"
fi
say "ready: $(pulumi version) at $PULUMI_ETL_ENGINE_ROOT"
