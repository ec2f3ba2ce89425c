#!/usr/bin/env bash
# `npm run bench:l4-flood`: installs what the benchmark needs (Debian's nftables, nginx with its
# stream module, gcc for the packet generator; npm packages) and runs bench/l4-flood.ts, which
# floods a layer-4 port inside network namespaces it creates, with and without the agent's table,
# and prints one JSON object on standard output (progress on standard error). Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_node
if [ "$(id -u)" -ne 0 ]; then echo "bench:l4-flood creates network namespaces: run it as root" >&2; exit 1; fi
# Standard output carries only the JSON: what the installs print goes to standard error.
apt_need nftables nginx libnginx-mod-stream gcc libc6-dev >&2
npm_deps >&2
exec npx tsx bench/l4-flood.ts
