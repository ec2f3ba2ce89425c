#!/usr/bin/env bash
# `npm run bench:console`: installs what the benchmark needs (Debian's Chromium, npm packages),
# builds the console and the control plane, and runs bench/console.ts, which prints one JSON object
# on standard output (progress goes to standard error).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_node
apt_need chromium >&2
npm_deps >&2
npm run build --silent >&2
exec npx tsx bench/console.ts
