#!/usr/bin/env bash
# `npm run bench:ingest`: installs what the benchmark needs (nginx with its Lua module for the real
# node, ClickHouse when BENCH_STORE=clickhouse, npm packages), builds the control plane and runs
# bench/ingest.ts, which prints one JSON object on standard output (progress goes to standard error).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_node
apt_need nginx libnginx-mod-http-lua libnginx-mod-http-cache-purge lua-resty-core lua-resty-lrucache lua-cjson libnginx-mod-stream libmaxminddb0 openssl >&2
if [ "${BENCH_STORE:-}" = clickhouse ]; then apt_need clickhouse-server >&2; fi
npm_deps >&2
npm run build --silent >&2
exec npx tsx bench/ingest.ts
