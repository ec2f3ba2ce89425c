#!/usr/bin/env bash
# `npm run edge -- <agent options>`: runs an edge agent from this repository checkout in the
# foreground, for trying a node on the control plane's own machine without root (the "Join a node"
# dialog prints the line, with the operator's join token):
#
#   RAMPART_JOIN_TOKEN=jt_... npm run edge -- --control-plane http://127.0.0.1:8080 --state-dir .edge-node \
#     --port-map 80=18080,443=18443 --listen-address 127.0.0.1 --ips 127.0.0.1
#
# It installs the Debian packages the edge needs when some are missing (setup-node.sh through sudo,
# leaving Debian's own nginx service and the Node.js that runs this alone), builds the agent's bundle
# when it is missing or older than its sources, and runs it with the options given. Relative paths
# are relative to the repository. Ctrl-C stops the agent and its nginx.
set -euo pipefail
cd "$(dirname "$0")/../../.."
. scripts/lib.sh
need_node
npm_deps
if command -v dpkg-query >/dev/null 2>&1; then
  bash apps/edge/scripts/setup-node.sh --keep-system-nginx --without-nodejs
else
  echo "==> not a Debian system: nginx with the Lua, cache purge and stream modules must be installed already" >&2
fi
bundle=apps/edge/dist/rampart-edge.js
if [ ! -f "$bundle" ] || [ -n "$(find apps/edge/src apps/edge/build.mjs apps/edge/package.json packages/contract/src \
  -type f -newer "$bundle" -print -quit)" ]; then
  echo "==> building the edge agent"
  npm run build --silent -w @rampart/edge
fi
# Run as root, nginx's workers run as nobody and must reach the state directory in the checkout.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 \
  && ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$PWD" 2>/dev/null; then
  echo "==> warning: nginx's workers (nobody) cannot enter $PWD; run this as the user of the checkout, not root" >&2
fi
exec node "$bundle" "$@"
