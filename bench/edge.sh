#!/usr/bin/env bash
# `npm run bench:edge`: installs what the benchmark needs (wrk and nginx with its Lua module from
# Debian's packages, npm packages), builds the control plane and the agent, and runs bench/edge.ts,
# which prints one JSON object on standard output (progress goes to standard error).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_node
apt_need wrk nginx libnginx-mod-http-lua libnginx-mod-http-cache-purge lua-resty-core lua-resty-lrucache lua-cjson libnginx-mod-stream libmaxminddb0 openssl >&2
npm_deps >&2
npm run build --silent >&2
exec npx tsx bench/edge.ts
