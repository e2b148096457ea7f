# The steps the Node-based test runners share (tests/mcp/run_node.cmake,
# tests/browser/run_browser.cmake, tests/web/run_web.cmake), included in
# cmake -P scripts.
#
# A missing tool prints SCAMCHECK_SKIP: (CTest then reports the test
# skipped), unless the environment variable CI is set: there it is a
# failure. A failed npm ci is always a failure.

# Ends the script: skipped, or failed under CI.
macro(skip_or_fail reason)
  if(NOT "$ENV{CI}" STREQUAL "")
    message(FATAL_ERROR "${reason} (CI is set, so a missing tool is a failure)")
  endif()
  message("SCAMCHECK_SKIP: ${reason}")
  return()
endmacro()

# NODE: node, version 20 or later.
macro(require_node)
  find_program(NODE node)
  if(NOT NODE)
    skip_or_fail("node (>= 20) is not installed")
  endif()
  execute_process(
    COMMAND ${NODE} -e "process.exit(Number(process.versions.node.split('.')[0]) >= 20 ? 0 : 1)"
    RESULT_VARIABLE too_old)
  if(too_old)
    skip_or_fail("node is older than 20")
  endif()
endmacro()

# npm ci in DIR, unless its node_modules already holds the pinned packages;
# ends the script.
macro(npm_ci_step)
  find_program(NPM npm)
  if(NOT NPM)
    skip_or_fail("npm is not installed")
  endif()
  # npm writes node_modules/.package-lock.json; while it is newer than the
  # committed lockfile, the installed packages are the pinned ones.
  if(EXISTS ${DIR}/node_modules/.package-lock.json
     AND NOT ${DIR}/package-lock.json IS_NEWER_THAN ${DIR}/node_modules/.package-lock.json)
    message("node_modules is up to date with package-lock.json")
    return()
  endif()
  execute_process(COMMAND ${NPM} ci --no-audit --no-fund
                  WORKING_DIRECTORY ${DIR} RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "npm ci failed in ${DIR}")
  endif()
  return()
endmacro()

# CHROMIUM: Debian's chromium, the binary itself, not the /usr/bin/chromium
# wrapper script, which adds flags of its own (remote extensions,
# /etc/chromium.d); $SCAMCHECK_CHROMIUM overrides. Exported to the test as
# SCAMCHECK_CHROMIUM.
macro(require_chromium)
  if(DEFINED ENV{SCAMCHECK_CHROMIUM})
    set(CHROMIUM $ENV{SCAMCHECK_CHROMIUM})
  else()
    find_program(CHROMIUM NAMES chromium PATHS /usr/lib/chromium NO_DEFAULT_PATH)
    find_program(CHROMIUM NAMES chromium chromium-browser)
  endif()
  if(NOT CHROMIUM OR NOT EXISTS "${CHROMIUM}")
    skip_or_fail("chromium is not installed (apt-get install chromium)")
  endif()
  set(ENV{SCAMCHECK_CHROMIUM} ${CHROMIUM})
endmacro()
