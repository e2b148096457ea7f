#!/bin/sh
# Runs openapi_check.mjs over the responses server_test.py recorded.
# Installs the pinned npm packages (package-lock.json) into WORK_DIR once.
# Reports itself skipped (SCAMCHECK_SKIP:) when node or the npm registry is
# not available.
#   run_openapi_check.sh SOURCE_DIR WORK_DIR RESPONSES_JSONL
set -eu
src=$1 work=$2 responses=$3
if ! command -v node >/dev/null 2>&1; then
  echo "SCAMCHECK_SKIP: node is not installed"
  exit 0
fi
mkdir -p "$work"
cp "$src/package.json" "$src/package-lock.json" "$src/openapi_check.mjs" "$work/"
stamp="$work/node_modules/.scamcheck-installed"
if [ ! -f "$stamp" ] || [ "$src/package-lock.json" -nt "$stamp" ]; then
  if ! (cd "$work" && npm ci --no-audit --no-fund --loglevel=error); then
    echo "SCAMCHECK_SKIP: npm ci failed (is the npm registry reachable?)"
    exit 0
  fi
  touch "$stamp"
fi
cd "$work"
exec node openapi_check.mjs "$responses"
