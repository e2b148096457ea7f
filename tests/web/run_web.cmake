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

require_chromium()
if(NOT EXISTS ${DIR}/node_modules/playwright-core/package.json
   OR NOT EXISTS ${DIR}/node_modules/axe-core/axe.min.js)
  message(FATAL_ERROR "${DIR}/node_modules is missing: run the web_npm_ci test first")
endif()

set(ENV{SCAMCHECKD} ${SCAMCHECKD})
execute_process(COMMAND ${NODE} --test --test-reporter=spec ${DIR}/web_test.mjs
                WORKING_DIRECTORY ${DIR} RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "web_test.mjs failed")
endif()
