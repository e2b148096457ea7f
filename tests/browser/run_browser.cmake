# Runs one step of the browser tests (label "browser").
#   cmake -DDIR=tests/browser -DSTEP=install -P run_browser.cmake
#   cmake -DDIR=tests/browser -DSTEP=run -DHOST=path/to/scamcheck-native-host
#         [-DLOCALE=de] [-DSCREENSHOT=file.png] -P run_browser.cmake
# A missing node, npm or chromium is a skip, or a failure under CI
# (tests/support/node_steps.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/../support/node_steps.cmake)

require_node()
if(STEP STREQUAL "install")
  npm_ci_step()
endif()

require_chromium()
if(NOT EXISTS ${DIR}/node_modules/playwright-core/package.json)
  message(FATAL_ERROR "${DIR}/node_modules is missing: run the browser_npm_ci test first")
endif()

set(ENV{SCAMCHECK_NATIVE_HOST} ${HOST})
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
