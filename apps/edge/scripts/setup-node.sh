#!/usr/bin/env bash
# Installs what an edge node needs from Debian's packages, idempotently: nginx with the Lua module
# (and the lua-resty libraries it needs), the stream module, lua-cjson, openssl and Node.js.
# Packages already installed are left alone; run it again at any time.
#
#   sudo apps/edge/scripts/setup-node.sh
#
# Debian's system nginx service is stopped and disabled (unless --keep-system-nginx):
# the agent runs its own nginx under <state-dir>/nginx, and the system one would hold ports 80/443.
# --without-nodejs leaves out Debian's nodejs (a Node.js 18 or newer is on the PATH already).
# The control plane's install script (/api/edge/v1/install.sh) runs this first.
set -euo pipefail

PACKAGES=(nginx libnginx-mod-http-lua libnginx-mod-http-cache-purge lua-resty-core lua-resty-lrucache lua-cjson libnginx-mod-stream libmaxminddb0 openssl nodejs)
keep_system_nginx=0
without_nodejs=0
for arg in "$@"; do
  case "$arg" in
    --keep-system-nginx) keep_system_nginx=1 ;;
    --without-nodejs) without_nodejs=1 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup-node.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

sudo=
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup-node.sh: run as root (or install sudo)" >&2; exit 1; }
  sudo=sudo
fi

if [ "$without_nodejs" -eq 1 ]; then
  PACKAGES=(${PACKAGES[@]/nodejs})
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

newly_installed_nginx=0
if [ ${#missing[@]} -gt 0 ]; then
  echo "==> installing: ${missing[*]}"
  for p in "${missing[@]}"; do [ "$p" = nginx ] && newly_installed_nginx=1; done
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
  $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "==> every package is installed: ${PACKAGES[*]}"
fi

if [ "$keep_system_nginx" -eq 0 ] && command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  if systemctl is-enabled --quiet nginx 2>/dev/null || systemctl is-active --quiet nginx 2>/dev/null; then
    echo "==> stopping and disabling the system nginx service (the agent runs its own nginx)"
    $sudo systemctl disable --now nginx >/dev/null 2>&1 || true
  fi
elif [ "$keep_system_nginx" -eq 0 ] && [ "$newly_installed_nginx" -eq 1 ]; then
  $sudo service nginx stop >/dev/null 2>&1 || true
fi

# The agent is bundled for Node 18 or newer (Debian 12 ships 18).
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' \
  || { echo "setup-node.sh: Node.js 18 or newer is needed, found $(node -v)" >&2; exit 1; }
for module in ndk_http_module ngx_http_lua_module ngx_http_cache_purge_module; do
  [ -f "/usr/lib/nginx/modules/$module.so" ] || { echo "setup-node.sh: /usr/lib/nginx/modules/$module.so is missing" >&2; exit 1; }
done
echo "==> ready: $(nginx -v 2>&1), node $(node -v)"
