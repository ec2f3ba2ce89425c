#!/usr/bin/env bash
# `npm run bench:log-capacity`: installs the npm packages and runs bench/log-capacity.ts, which prints one
# JSON object per analytics store (the log records a second its raw log table takes).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_node
npm_deps
exec npx tsx bench/log-capacity.ts
