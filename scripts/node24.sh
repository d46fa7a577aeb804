#!/usr/bin/env bash
# Prints the bin folder of the project's Node (the major version in .nvmrc, 24): the machine's
# own node when it is that version or newer (nothing is installed), otherwise the npm registry's
# node-linux-<arch> package of that major, unpacked once into a cache folder outside the
# repository (~/.cache/arbitrage-monitor/node24, under XDG_CACHE_HOME when set) and reused after.
#   export PATH="$(scripts/node24.sh):$PATH"
# .ci/run does this first. npm pack checks the package against the registry's integrity hash.
set -euo pipefail
want=$(tr -d 'v \n' < "$(dirname "$0")/../.nvmrc" | cut -d. -f1)
major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if command -v node >/dev/null && [ "$(major node)" -ge "$want" ]; then
  dirname "$(command -v node)"
  exit 0
fi
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "scripts/node24.sh: no node-linux package for $(uname -m); install Node $want" >&2; exit 1 ;;
esac
cache=${XDG_CACHE_HOME:-$HOME/.cache}/arbitrage-monitor/node$want
if [ ! -x "$cache/bin/node" ] || [ "$(major "$cache/bin/node")" != "$want" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-$arch@$want" >/dev/null)
  mkdir -p "$tmp/unpacked" "$(dirname "$cache")"
  tar xzf "$tmp"/node-linux-*.tgz -C "$tmp/unpacked" --strip-components=1
  rm -rf "$cache" && mv "$tmp/unpacked" "$cache"
  echo "scripts/node24.sh: Node $("$cache/bin/node" --version) from the npm registry (node-linux-$arch) in $cache" >&2
fi
echo "$cache/bin"
