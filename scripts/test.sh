#!/usr/bin/env bash
# Builds ScamCheck (Release, with tests) into build/ and runs every test
# through CTest. Extra CMake arguments can be passed in SCAMCHECK_CMAKE_ARGS
# (CI adds -DSCAMCHECK_WERROR=ON).
#
# Installs the Debian packages it needs first (scripts/install-deps.sh; as
# root, or through sudo when available).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ $(id -u) -eq 0 ]] || ! command -v sudo >/dev/null; then
  bash scripts/install-deps.sh
else
  sudo bash scripts/install-deps.sh
fi

# shellcheck disable=SC2086  # SCAMCHECK_CMAKE_ARGS is a list of arguments
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCAMCHECK_BUILD_TESTS=ON \
  ${SCAMCHECK_CMAKE_ARGS:-}
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
