# Runs one step of the Node-based MCP tests; a missing node or npm is a
# skip, or a failure under CI (tests/support/node_steps.cmake).
#   cmake -DDIR=tests/mcp -DSTEP=install -P run_node.cmake
#   cmake -DDIR=tests/mcp -DSTEP=run -DSCRIPT=x.mjs -DSERVER=path [-DSCAMCHECKD=path] -P run_node.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../support/node_steps.cmake)

require_node()
if(STEP STREQUAL "install")
  npm_ci_step()
endif()

if(NOT EXISTS ${DIR}/node_modules/@modelcontextprotocol/sdk/package.json)
  message(FATAL_ERROR "${DIR}/node_modules is missing: run the mcp_npm_ci test first")
endif()
set(ENV{SCAMCHECK_MCP} ${SERVER})
if(SCAMCHECKD)
  set(ENV{SCAMCHECKD} ${SCAMCHECKD})
endif()
execute_process(COMMAND ${NODE} --test --test-reporter=spec ${DIR}/${SCRIPT}
                WORKING_DIRECTORY ${DIR} RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "${SCRIPT} failed")
endif()
