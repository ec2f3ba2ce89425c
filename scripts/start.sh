#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, and starts the control plane on its embedded
# database. Honours PORT, HOST, DATA_DIR, DATABASE_URL and the rest of the README's settings.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_node
npm_deps
build_if_stale
export DATA_DIR="${DATA_DIR:-$PWD/data}"
exec node apps/server/dist/main.js
