#!/usr/bin/env bash
# `npm run bench:log-export`: installs the npm packages and runs bench/log-export.ts, which prints one
# JSON object (records, seconds, the process' memory before and at its peak while exporting).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_node
npm_deps
exec npx tsx bench/log-export.ts
