#!/usr/bin/env bash
# Sets up everything the project needs on this machine: Node.js 22, the npm dependencies, the
# compiled package and the Pulumi engine. Run it, or source it to also get the environment
# (PATH and the offline Pulumi settings) in the current shell.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

export PATH="$(bash "$REPO_ROOT/scripts/node.sh"):$PATH"
say "node $(node --version), npm $(npm --version)"

# `npm ci` only when the lock file changed since the last install: it wipes node_modules.
lock_stamp="$REPO_ROOT/node_modules/.setup-lock.sha256"
lock_hash="$(sha256sum "$REPO_ROOT/package-lock.json" | cut -d' ' -f1)"
if [ "$(cat "$lock_stamp" 2>/dev/null || true)" != "$lock_hash" ]; then
  # A clone of the same lock file takes a copy of the packages the first install on this machine
  # kept (3 s, where `npm ci` takes 12 s and twice the CPU); the copy is made before anything runs.
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

# What later steps would each stop to download, fetched while this compiles (not beside npm's
# install, which waits on the network too); on a machine set up before, nothing is missing and
# it ends at once.
bash "$REPO_ROOT/scripts/prefetch.sh" &
prefetch=$!

# The Python, Go and YAML language hosts, the SDK generator and a Python environment with pulumi,
# built beside the package and the engine: a Go build leaves a core idle while it links or waits
# on its largest packages, and pip on the network; the two builds share few packages (other
# versions of Pulumi's modules). On a machine set up before, it ends at once.
mkdir -p "$LOCAL_ROOT"
bash "$REPO_ROOT/scripts/languages.sh" >"$LOCAL_ROOT/.languages-root" &
languages=$!

say "compiling the package"
# Incrementally, from this machine's last build when dist/ is new (scripts/build.sh says how no
# output of a removed source stays behind). The build also collects the inputs' documentation for
# the plugin's schema.
(cd "$REPO_ROOT" && npm run --silent build >&2)

# A failed engine build waits for the language hosts' to end, so none is left building.
PULUMI_ETL_ENGINE_ROOT="$(bash "$REPO_ROOT/scripts/engine.sh")" || { wait "$languages" || true; exit 1; }
export PULUMI_ETL_ENGINE_ROOT
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
