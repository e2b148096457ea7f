# Runs one step of the browser tests (label "browser").
#   cmake -DDIR=tests/browser -DSTEP=install -P run_browser.cmake
#   cmake -DDIR=tests/browser -DSTEP=run -DHOST=path/to/scamcheck-native-host
#         [-DLOCALE=de] [-DSCREENSHOT=file.png] -P run_browser.cmake
# A missing node, npm or chromium prints SCAMCHECK_SKIP: (CTest reports the
# test skipped) — unless the environment variable CI is set: then it is a
# failure, as is a failed npm ci.
function(missing_tool what)
  if(DEFINED ENV{CI})
    message(FATAL_ERROR "${what} (CI is set, so this is a failure)")
  endif()
  message("SCAMCHECK_SKIP: ${what}")
endfunction()

find_program(NODE node)
if(NOT NODE)
  missing_tool("node (>= 20) is not installed")
  return()
endif()
execute_process(COMMAND ${NODE} -e "process.exit(Number(process.versions.node.split('.')[0]) >= 20 ? 0 : 1)"
                RESULT_VARIABLE too_old)
if(too_old)
  missing_tool("node is older than 20")
  return()
endif()

if(STEP STREQUAL "install")
  find_program(NPM npm)
  if(NOT NPM)
    missing_tool("npm is not installed")
    return()
  endif()
  # npm writes node_modules/.package-lock.json; while it is newer than the
  # committed lockfile, the installed packages are the pinned ones.
  set(stamp ${DIR}/node_modules/.package-lock.json)
  if(EXISTS ${stamp} AND NOT ${DIR}/package-lock.json IS_NEWER_THAN ${stamp})
    message("node_modules is up to date with package-lock.json")
    return()
  endif()
  execute_process(COMMAND ${NPM} ci --no-audit --no-fund
                  WORKING_DIRECTORY ${DIR} RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "npm ci failed in ${DIR}")
  endif()
  return()
endif()

# Debian's chromium: the binary itself, not the /usr/bin/chromium wrapper
# script, which adds flags of its own (remote extensions, /etc/chromium.d).
if(DEFINED ENV{SCAMCHECK_CHROMIUM})
  set(CHROMIUM $ENV{SCAMCHECK_CHROMIUM})
else()
  find_program(CHROMIUM NAMES chromium PATHS /usr/lib/chromium NO_DEFAULT_PATH)
  find_program(CHROMIUM NAMES chromium chromium-browser)
endif()
if(NOT CHROMIUM OR NOT EXISTS "${CHROMIUM}")
  missing_tool("chromium is not installed (apt-get install chromium)")
  return()
endif()
if(NOT EXISTS ${DIR}/node_modules/playwright-core/package.json)
  message(FATAL_ERROR "${DIR}/node_modules is missing: run the browser_npm_ci test first")
endif()

set(ENV{SCAMCHECK_NATIVE_HOST} ${HOST})
set(ENV{SCAMCHECK_CHROMIUM} ${CHROMIUM})
if(LOCALE)
  set(ENV{SCAMCHECK_BROWSER_LOCALE} ${LOCALE})
endif()
if(SCREENSHOT)
  set(ENV{SCAMCHECK_SCREENSHOT} ${SCREENSHOT})
endif()
execute_process(COMMAND ${NODE} --test --test-reporter=spec ${DIR}/extension_test.mjs
                WORKING_DIRECTORY ${DIR} RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "extension_test.mjs failed")
endif()
