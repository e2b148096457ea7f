# Runs one step of the web interface tests (label "web").
#   cmake -DDIR=tests/web -DSTEP=install -P run_web.cmake
#   cmake -DDIR=tests/web -DSTEP=run -DSCAMCHECKD=path/to/scamcheckd -P run_web.cmake
# A missing node, npm or chromium is a skip, or a failure under CI
# (tests/support/node_steps.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/../support/node_steps.cmake)

require_node()
if(STEP STREQUAL "install")
  npm_ci_step()
endif()

# Debian's chromium: the binary itself, not the /usr/bin/chromium wrapper.
if(DEFINED ENV{SCAMCHECK_CHROMIUM})
  set(CHROMIUM $ENV{SCAMCHECK_CHROMIUM})
else()
  find_program(CHROMIUM NAMES chromium PATHS /usr/lib/chromium NO_DEFAULT_PATH)
  find_program(CHROMIUM NAMES chromium chromium-browser)
endif()
if(NOT CHROMIUM OR NOT EXISTS "${CHROMIUM}")
  skip_or_fail("chromium is not installed (apt-get install chromium)")
endif()
if(NOT EXISTS ${DIR}/node_modules/playwright-core/package.json
   OR NOT EXISTS ${DIR}/node_modules/axe-core/axe.min.js)
  message(FATAL_ERROR "${DIR}/node_modules is missing: run the web_npm_ci test first")
endif()

set(ENV{SCAMCHECKD} ${SCAMCHECKD})
set(ENV{SCAMCHECK_CHROMIUM} ${CHROMIUM})
execute_process(COMMAND ${NODE} --test --test-reporter=spec ${DIR}/web_test.mjs
                WORKING_DIRECTORY ${DIR} RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "web_test.mjs failed")
endif()
