#!/usr/bin/env bash
# `npm run bench:waf`: installs what the benchmark needs (Debian's nginx, its ModSecurity module and
# the OWASP Core Rule Set; the edge's nginx modules and libraries for the rampart targets; npm
# packages) and runs bench/waf.ts, which replays ../shared/waf-corpus/ through each target and prints
# one JSON object on standard output (progress on standard error).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_node
# Standard output carries only the JSON: what the installs print goes to standard error.
apt_need nginx libnginx-mod-http-modsecurity modsecurity-crs \
  libnginx-mod-http-lua libnginx-mod-http-cache-purge lua-resty-core lua-resty-lrucache lua-cjson libnginx-mod-stream libmaxminddb0 openssl >&2
npm_deps >&2
exec npx tsx bench/waf.ts
