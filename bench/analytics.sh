#!/usr/bin/env bash
# `npm run bench:analytics`: installs the npm packages and runs bench/analytics.ts, which prints one
# JSON object per analytics store on standard output (progress goes to standard error).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_node
npm_deps
exec npx tsx bench/analytics.ts
