#!/usr/bin/env bash
# Build the JupyterLab extension (extensions/hipwb-lab) into workbench/labextension/hipwb-lab,
# only when its sources changed: the built assets are committed, so a fresh clone needs no Node.
#
#   tools/build-labextension.sh [PYTHON]     PYTHON: the interpreter whose jupyterlab is the core
#   tools/build-labextension.sh --check      exit 1 if the committed build is stale
#
# "Changed" = the sha256 of the sources (src/, style/, package.json, package-lock.json) differs
# from extensions/hipwb-lab/built-from.sha256, written by the last build. Git does not keep
# mtimes, so make's timestamps cannot tell this on a fresh clone.
set -euo pipefail
cd "$(dirname "$0")/.."
EXT=extensions/hipwb-lab
OUT=workbench/labextension/hipwb-lab
STAMP=$EXT/built-from.sha256

source_hash() {
    (cd "$EXT" && find src style package.json package-lock.json install.json -type f | LC_ALL=C sort \
        | xargs sha256sum) | sha256sum | cut -d' ' -f1
}

want=$(source_hash)
have=$(cat "$STAMP" 2>/dev/null || true)
if [ "${1:-}" = --check ]; then
    [ "$want" = "$have" ] && [ -f "$OUT/package.json" ] && exit 0
    echo "$OUT is stale: run tools/build-labextension.sh and commit it" >&2
    exit 1
fi
if [ "$want" = "$have" ] && [ -f "$OUT/package.json" ]; then
    exit 0
fi
PYTHON=${1:-python3}
command -v npm >/dev/null || { echo "$EXT changed and npm is missing: install Node >= 18" >&2; exit 1; }
CORE=$("$PYTHON" -c 'import jupyterlab, os; print(os.path.join(os.path.dirname(jupyterlab.__file__), "staging"))')
echo "Building $EXT (sources changed) against JupyterLab core $CORE"
(cd "$EXT" && npm ci --no-audit --no-fund --loglevel=error)
rm -rf "$OUT/static"
# @jupyterlab/builder's own script: `jupyter labextension build` in JupyterLab 4.6 hands over to
# jupyter-builder, which fetches @jupyterlab/core-meta from npm and fails offline/on mirrors.
(cd "$EXT" && node node_modules/@jupyterlab/builder/lib/build-labextension.js --core-path "$CORE" .)
cp "$EXT/install.json" "$OUT/install.json"  # tells `jupyter labextension list` it came from pip
echo "$want" > "$STAMP"
