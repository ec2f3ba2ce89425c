#!/usr/bin/env bash
# `npm run build`: the console (vite), the control plane and the edge agent (esbuild). The two
# esbuild bundles are made beside the console's build, which keeps both cores busy only while it
# compresses; each writes only its own dist/, and the build fails when any of the three does.
set -uo pipefail
cd "$(dirname "$0")/.."
npm run build -w @rampart/server & server=$!
npm run build -w @rampart/edge & edge=$!
npm run build -w @rampart/console
status=$?
wait "$server" || status=1
wait "$edge" || status=1
exit "$status"
