#!/usr/bin/env bash
# `npm test -w e2e -- [playwright options]`: the browser tests alone. Installs what they need
# (Debian's Chromium and a CJK font for the Chinese pages; npm packages), builds the console and the
# control plane when their sources changed, and runs Playwright against the build. `npm test` runs
# the same tests after every other suite.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_node
apt_need chromium fonts-wqy-microhei
npm_deps
build_if_stale
cd e2e
exec npx playwright test "$@"
