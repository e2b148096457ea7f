#!/bin/sh
# Drives the tests of the scamcheck Python package (bindings/python) for CTest.
#
#   run.sh setup  PYTHON PACKAGE_DIR WORK_DIR CMAKE C_API_BUILD_DIR
#       installs the built C API (cmake --install C_API_BUILD_DIR) to
#       WORK_DIR/prefix, copies the package to WORK_DIR/src, makes
#       WORK_DIR/venv (--system-site-packages: Debian's pytest and setuptools)
#       and installs the package into it offline (pip --no-build-isolation
#       --no-index) with SCAMCHECK_PREFIX=WORK_DIR/prefix recorded.
#   run.sh pytest WORK_DIR TEST_FILE CASE     one pytest case in that venv
#   run.sh collect WORK_DIR TEST_FILE CASE... the cases CTest lists are all there are
#   run.sh mypy PACKAGE_DIR WORK_DIR [TEST_FILE]
#       mypy --strict on the package source, or (with TEST_FILE) on the tests
#       against the installed, typed package (PEP 561 py.typed)
#
# A missing tool (Python, its venv, pip, setuptools, pytest, mypy) skips the
# case (SCAMCHECK_SKIP:) unless CI is set, where it fails.
set -u

skip_or_fail() {
  if [ -n "${CI:-}" ]; then
    echo "FAIL: $1 (CI is set, so a missing tool is a failure)"
    exit 1
  fi
  echo "SCAMCHECK_SKIP: $1"
  exit 0
}

export PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

mode=$1
shift
case $mode in
setup)
  python=$1 package=$2 work=$3 cmake=$4 c_api_build=$5
  command -v "$python" >/dev/null 2>&1 || skip_or_fail "no Python interpreter ($python; Debian: python3)"
  for module in venv ensurepip pip setuptools wheel pytest; do
    "$python" -c "import $module" 2>/dev/null ||
      skip_or_fail "$python lacks the module $module (Debian: python3-venv python3-pip python3-setuptools python3-wheel python3-pytest)"
  done
  rm -rf "$work" && mkdir -p "$work" || exit 1
  # A copy, so that the build leaves nothing in the source tree.
  cp -R "$package" "$work/src" && rm -rf "$work/src/build" "$work/src/src/"*.egg-info || exit 1
  "$cmake" --install "$c_api_build" --prefix "$work/prefix" || exit 1
  "$python" -m venv --system-site-packages "$work/venv" || exit 1
  SCAMCHECK_PREFIX="$work/prefix" "$work/venv/bin/python" -m pip install -q \
    --no-build-isolation --no-index --no-cache-dir "$work/src" || exit 1
  cd "$work" && "$work/venv/bin/python" -c 'import scamcheck, pytest; print("installed", scamcheck.__file__)' || exit 1
  touch "$work/ready"
  ;;
pytest | collect)
  work=$1 tests=$2
  shift 2
  [ -f "$work/ready" ] || skip_or_fail "the venv of python_package_setup is missing (it was skipped)"
  cd "$work" || exit 1
  export SCAMCHECK_TEST_PREFIX="$work/prefix"
  if [ "$mode" = pytest ]; then
    exec "$work/venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir "$work" \
      "$tests::$1"
  fi
  found=$("$work/venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir "$work" \
    --collect-only "$tests" | sed -n 's/^.*::\([A-Za-z0-9_]*\)$/\1/p' | sort)
  listed=$(printf '%s\n' "$@" | sort)
  if [ "$found" != "$listed" ]; then
    echo "FAIL: the cases of $tests and those CTest lists differ:"
    printf 'in the file:\n%s\nlisted:\n%s\n' "$found" "$listed"
    exit 1
  fi
  echo "all $# cases listed"
  ;;
mypy)
  package=$1 work=$2 tests=${3:-}
  command -v mypy >/dev/null 2>&1 || skip_or_fail "no mypy (Debian: mypy)"
  if [ -z "$tests" ]; then
    exec mypy --strict --cache-dir "$work/mypy-cache-src" --config-file "$package/pyproject.toml" \
      "$package/src/scamcheck"
  fi
  [ -f "$work/ready" ] || skip_or_fail "the venv of python_package_setup is missing (it was skipped)"
  cd "$work" || exit 1
  exec mypy --strict --cache-dir "$work/mypy-cache-tests" --python-executable "$work/venv/bin/python" \
    "$tests"
  ;;
*)
  echo "usage: run.sh setup|pytest|collect|mypy ..." >&2
  exit 64
  ;;
esac
