#!/bin/sh
# Installs a Rampart edge node on a fresh Debian machine and joins it to a control plane. The control
# plane serves this script (with setup-node.sh built in) at /api/edge/v1/install.sh; the operator's
# "Join a node" dialog prints the line to run:
#
#   curl -fsSL https://cp.example.com/api/edge/v1/install.sh \
#     | sudo RAMPART_JOIN_TOKEN=jt_... sh -s -- --control-plane https://cp.example.com
#
# It installs the Debian packages (setup-node.sh), downloads the agent release of the control
# plane's own version, checks every file against the release manifest (SHA-256), installs it under
# the prefix, writes the systemd unit rampart-edge.service and starts it. The join token is read
# from RAMPART_JOIN_TOKEN only: it is put in /etc/rampart-edge/join.env (0600, root) for the
# service's first start and removed once the agent has registered (<state-dir>/credentials.json).
# Running it again upgrades the installed agent to the control plane's version.
#
# Options:
#   --control-plane <url>  the control plane (http:// or https://)        RAMPART_CONTROL_PLANE
#   --prefix <dir>         where the agent is installed (/opt/rampart-edge)
#   --state-dir <dir>      the agent's state directory (/var/lib/rampart-edge)
#   --no-packages          do not install Debian packages (nginx, Lua, Node.js are there already)
#   --no-service           install the agent only: no systemd unit, nothing started
#   --keep-system-nginx    leave Debian's nginx service running (setup-node.sh)
set -eu

prefix=/opt/rampart-edge
state_dir=/var/lib/rampart-edge
control_plane=${RAMPART_CONTROL_PLANE:-}
packages=1
service=1
keep_system_nginx=
unit=/etc/systemd/system/rampart-edge.service
env_dir=/etc/rampart-edge

say() { printf '==> %s\n' "$*"; }
fail() { printf 'rampart install: %s\n' "$*" >&2; exit 1; }

# setup-node.sh, as the control plane's agent package has it (the control plane puts it here).
write_setup_node() {
  cat >"$1" <<'RAMPART_SETUP_NODE_SH'
@SETUP_NODE_SH@
RAMPART_SETUP_NODE_SH
}

parse_args() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --control-plane) [ $# -ge 2 ] || fail "$1 needs a value"; control_plane=$2; shift 2 ;;
      --control-plane=*) control_plane=${1#*=}; shift ;;
      --prefix) [ $# -ge 2 ] || fail "$1 needs a value"; prefix=$2; shift 2 ;;
      --prefix=*) prefix=${1#*=}; shift ;;
      --state-dir) [ $# -ge 2 ] || fail "$1 needs a value"; state_dir=$2; shift 2 ;;
      --state-dir=*) state_dir=${1#*=}; shift ;;
      --no-packages) packages=0; shift ;;
      --no-service) service=0; shift ;;
      --keep-system-nginx) keep_system_nginx=--keep-system-nginx; shift ;;
      -h|--help) usage; exit 0 ;;
      *) fail "unknown option $1 (see --help)" ;;
    esac
  done
}

usage() {
  cat <<'EOF'
Usage: curl -fsSL <control plane>/api/edge/v1/install.sh | sudo RAMPART_JOIN_TOKEN=<token> sh -s -- --control-plane <url> [options]
  --control-plane <url>  the control plane (http:// or https://)
  --prefix <dir>         where the agent is installed (/opt/rampart-edge)
  --state-dir <dir>      the agent's state directory (/var/lib/rampart-edge)
  --no-packages          do not install Debian packages
  --no-service           install the agent only: no systemd unit, nothing started
  --keep-system-nginx    leave Debian's nginx service running
EOF
}

check_args() {
  control_plane=${control_plane%/}
  [ -n "$control_plane" ] || fail "--control-plane is missing"
  # It goes into the unit's ExecStart, where systemd would expand % and $: a plain URL only.
  printf '%s' "$control_plane" | grep -Eq '^https?://[][A-Za-z0-9.:_-]+(/[A-Za-z0-9._~/-]*)?$' \
    || fail "--control-plane: not an http(s) URL of letters, digits and ._~/:- ($control_plane)"
  for dir in "$prefix" "$state_dir"; do
    printf '%s' "$dir" | grep -Eq '^/[A-Za-z0-9._/-]*[A-Za-z0-9_-]$' || fail "not an absolute path of letters, digits and ._/-: $dir"
    case "/$dir/" in */../*|*/./*) fail "not a plain path: $dir" ;; esac
  done
  token=${RAMPART_JOIN_TOKEN:-}
  if [ -n "$token" ]; then
    printf '%s' "$token" | grep -Eq '^[A-Za-z0-9_-]{1,256}$' || fail "RAMPART_JOIN_TOKEN is not a join token"
  elif [ "$service" -eq 1 ] && [ ! -f "$state_dir/credentials.json" ]; then
    fail "RAMPART_JOIN_TOKEN is missing: copy the line from the console's \"Join a node\" dialog"
  fi
  if [ "$(id -u)" -ne 0 ] && { [ "$packages" -eq 1 ] || [ "$service" -eq 1 ]; }; then
    fail "run it as root: ... | sudo RAMPART_JOIN_TOKEN=... sh -s -- --control-plane $control_plane"
  fi
}

install_packages() {
  if [ "$packages" -eq 0 ]; then
    say "leaving the Debian packages alone (--no-packages)"
    return
  fi
  write_setup_node "$work/setup-node.sh"
  bash "$work/setup-node.sh" $keep_system_nginx </dev/null
}

need_tools() {
  for tool in curl sha256sum node; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (leave out --no-packages to install what is missing)"
  done
  node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' \
    || fail "Node.js 18 or newer is needed, found $(node -v)"
}

fetch() {
  curl -fsS --proto '=http,https' --retry 3 --connect-timeout 15 "$@"
}

# The release manifest as lines `<sha256> <size> <path>` (its version in $work/version), every
# field checked before the shell uses it.
read_manifest() {
  fetch -o "$work/manifest.json" "$control_plane/api/edge/v1/install/release" \
    || fail "could not fetch the agent release's manifest from $control_plane (is the agent built there? npm run build -w @rampart/edge)"
  node -e '
    const fs = require("fs");
    const [, file, versionFile, listFile] = process.argv;
    const m = JSON.parse(fs.readFileSync(file, "utf8")).data;
    const version = /^[0-9A-Za-z][0-9A-Za-z._-]{0,63}$/;
    const rel = /^(dist|lua)(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/;
    if (!m || !version.test(m.version) || !Array.isArray(m.files) || m.files.length === 0) throw new Error("not a release manifest");
    const lines = m.files.map((f) => {
      if (!rel.test(f.path) || !/^[0-9a-f]{64}$/.test(f.sha256) || !Number.isInteger(f.size) || f.size < 0) {
        throw new Error("bad file entry: " + JSON.stringify(f));
      }
      return f.sha256 + " " + f.size + " " + f.path;
    });
    if (!lines.some((l) => l.endsWith(" dist/rampart-edge.js"))) throw new Error("no dist/rampart-edge.js");
    fs.writeFileSync(versionFile, m.version);
    fs.writeFileSync(listFile, lines.join("\n") + "\n");
  ' "$work/manifest.json" "$work/version" "$work/files" || fail "the release manifest from $control_plane was refused"
  version=$(cat "$work/version")
}

download_release() {
  stage=$(mktemp -d "$prefix.staging.XXXXXX")
  say "downloading the agent release $version from $control_plane"
  : >"$work/sha256"
  while read -r sha size path; do
    mkdir -p "$stage/$(dirname "$path")"
    fetch --max-filesize "$size" -o "$stage/$path" \
      "$control_plane/api/edge/v1/install/release/file?version=$version&path=$path" \
      || fail "could not download $path of release $version"
    [ "$(wc -c <"$stage/$path")" -eq "$size" ] || fail "$path: not the size the manifest names"
    printf '%s  %s\n' "$sha" "$path" >>"$work/sha256"
  done <"$work/files"
  (cd "$stage" && sha256sum --check --strict --quiet "$work/sha256") || fail "the release does not match its manifest (SHA-256)"
  chmod 0755 "$stage" "$stage/dist/rampart-edge.js"
  ran=$(node "$stage/dist/rampart-edge.js" --version) || fail "the downloaded agent does not run"
  [ "$ran" = "$version" ] || fail "the downloaded agent says it is $ran, not $version"
  say "verified: every file's SHA-256 matches the manifest; the agent runs ($ran)"
}

install_release() {
  if [ -e "$prefix" ]; then
    old="$prefix.old.$$"
    mv "$prefix" "$old"
    mv "$stage" "$prefix"
    rm -rf "$old"
  else
    mv "$stage" "$prefix"
  fi
  stage=
  # An upgrade installed under the state directory runs instead of the installed agent
  # (agent.handoff): after installing this control plane's version, that one is what should run.
  current="$state_dir/releases/current"
  if [ -L "$current" ] && [ "$(readlink "$current")" != "$version" ]; then
    rm -f "$current"
  fi
  say "installed the agent $version in $prefix"
}

install_service() {
  node_bin=$(command -v node)
  if [ ! -d /run/systemd/system ]; then
    fail "systemd is not running here: start the agent yourself, as root, under a service manager:
  RAMPART_JOIN_TOKEN=... $node_bin $prefix/dist/rampart-edge.js --control-plane $control_plane --state-dir $state_dir"
  fi
  if [ -n "$token" ]; then
    (umask 077 && mkdir -p "$env_dir" && printf 'RAMPART_JOIN_TOKEN=%s\n' "$token" >"$env_dir/join.env.tmp" \
      && mv "$env_dir/join.env.tmp" "$env_dir/join.env")
  fi
  cat >"$unit.tmp" <<EOF
# Written by the Rampart install script (/api/edge/v1/install.sh of $control_plane).
[Unit]
Description=Rampart edge agent
After=network-online.target
Wants=network-online.target

[Service]
# The join token, for the first start only: removed once the node has registered.
EnvironmentFile=-$env_dir/join.env
ExecStart=$node_bin $prefix/dist/rampart-edge.js --control-plane $control_plane --state-dir $state_dir
Restart=always
RestartSec=1
# nginx runs as its own daemon in this unit's cgroup: stop only the agent, so a restart (an upgrade,
# a crash) never takes the sites down. A plain systemctl stop still stops nginx through the agent.
KillMode=process

[Install]
WantedBy=multi-user.target
EOF
  mv "$unit.tmp" "$unit"
  systemctl daemon-reload
  systemctl enable rampart-edge.service >/dev/null 2>&1
  systemctl restart rampart-edge.service
  say "started rampart-edge.service"
  if [ -f "$env_dir/join.env" ]; then
    waited=0
    while [ ! -f "$state_dir/credentials.json" ] && [ "$waited" -lt 60 ]; do
      sleep 1
      waited=$((waited + 1))
    done
    if [ -f "$state_dir/credentials.json" ]; then
      rm -f "$env_dir/join.env"
      say "the node has registered; it now waits in the console (Nodes) to be initialised"
    else
      say "the node has not registered yet (see: journalctl -u rampart-edge); $env_dir/join.env (0600) keeps the token until it has, then remove it"
    fi
  else
    say "the node was registered before: it keeps its credentials"
  fi
  say "logs: journalctl -u rampart-edge -f"
}

cleanup() {
  [ -n "${stage:-}" ] && rm -rf "$stage"
  [ -n "${work:-}" ] && rm -rf "$work"
  return 0
}

main() {
  parse_args "$@"
  check_args
  umask 022
  work=$(mktemp -d)
  stage=
  trap cleanup EXIT
  trap 'exit 130' INT TERM
  install_packages
  need_tools
  mkdir -p "$(dirname "$prefix")"
  read_manifest
  download_release
  install_release
  if [ "$service" -eq 1 ]; then
    install_service
  else
    say "not installing a service (--no-service); start the agent with:"
    printf '  RAMPART_JOIN_TOKEN=... %s %s/dist/rampart-edge.js --control-plane %s --state-dir %s\n' \
      "$(command -v node)" "$prefix" "$control_plane" "$state_dir"
  fi
}

# Everything runs from here, so a download cut short runs nothing.
main "$@"
