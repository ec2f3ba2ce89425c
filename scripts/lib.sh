# Shared by start.sh and test.sh: Node check, npm dependencies, system packages.

need_node() {
  if ! command -v node >/dev/null 2>&1; then
    echo "Rampart needs Node.js 20.19 or newer (node not found)" >&2; exit 1
  fi
  local v; v=$(node -p 'process.versions.node')
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
    || { echo "Rampart needs Node.js 20.19 or newer (found $v)" >&2; exit 1; }
}

# Installs npm dependencies when node_modules is missing or older than the lock file.
npm_deps() {
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "==> installing npm dependencies"
    # Not `npm ci`: the registry reachable here lacks some optional platform packages listed in
    # the lock file (Biome's Windows, macOS and Android builds), which `npm ci` treats as an error.
    npm install --no-audit --no-fund --loglevel=error
  fi
}

# apt_need PKG... : installs the Debian packages that are missing (as root, or through sudo).
apt_need() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "==> installing Debian packages: ${missing[*]}"
  local sudo=
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "need root to install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Builds the console and the server bundle when their sources are newer than the last build.
build_if_stale() {
  local stamp=apps/server/dist/.built
  if [ ! -f "$stamp" ] || [ -n "$(find packages apps/console apps/server -path '*/node_modules' -prune -o -path '*/dist' -prune -o -type f -newer "$stamp" -print -quit)" ]; then
    echo "==> building the console and the control plane"
    npm run build --silent
    touch "$stamp"
  fi
}
