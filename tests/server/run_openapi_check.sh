#!/bin/sh
# Runs openapi_check.mjs over the responses server_test.py recorded.
# Installs the pinned npm packages (package-lock.json) into WORK_DIR once.
# Reports itself skipped (SCAMCHECK_SKIP:) when node or the npm registry is
# not available, unless the environment variable CI is set: there that is a
# failure.
#   run_openapi_check.sh SOURCE_DIR WORK_DIR RESPONSES_JSONL
set -eu
src=$1 work=$2 responses=$3
skip_or_fail() {
  if [ -n "${CI:-}" ]; then
    echo "FAIL: $1 (CI is set, so a missing tool is a failure)"
    exit 1
  fi
  echo "SCAMCHECK_SKIP: $1"
  exit 0
}
if ! command -v node >/dev/null 2>&1; then
  skip_or_fail "node is not installed"
fi
mkdir -p "$work"
cp "$src/package.json" "$src/package-lock.json" "$src/openapi_check.mjs" "$work/"
stamp="$work/node_modules/.scamcheck-installed"
if [ ! -f "$stamp" ] || [ "$src/package-lock.json" -nt "$stamp" ]; then
  if ! (cd "$work" && npm ci --no-audit --no-fund --loglevel=error); then
    skip_or_fail "npm ci failed (is the npm registry reachable?)"
  fi
  touch "$stamp"
fi
cd "$work"
exec node openapi_check.mjs "$responses"
