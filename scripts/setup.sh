#!/usr/bin/env bash
# setup.sh [--tests] — install the Debian packages Tactica needs (only those missing), then
# configure and build the release preset. --tests also installs what the test suite needs.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake make libboost-dev libtomlplusplus-dev doctest-dev libbenchmark-dev
          libcli11-dev nlohmann-json3-dev python3
          libpagmo-dev libeigen3-dev libtbb-dev libboost-serialization-dev)
if [[ "${1:-}" == "--tests" ]]; then
  packages+=(chromium parallel)  # parallel: tests/cluster (GNU parallel shards)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
