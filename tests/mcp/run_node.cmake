# Runs one step of the Node-based MCP tests; prints SCAMCHECK_SKIP: (CTest
# then reports the test as skipped) when node or npm is not installed,
# unless the environment variable CI is set: there a missing tool is a
# failure. A failed npm ci is always a failure.
#   cmake -DDIR=tests/mcp -DSTEP=install -P run_node.cmake
#   cmake -DDIR=tests/mcp -DSTEP=run -DSCRIPT=x.mjs -DSERVER=path [-DSCAMCHECKD=path] -P run_node.cmake
macro(skip_or_fail reason)
  if(NOT "$ENV{CI}" STREQUAL "")
    message(FATAL_ERROR "${reason} (CI is set, so a missing tool is a failure)")
  endif()
  message("SCAMCHECK_SKIP: ${reason}")
  return()
endmacro()

find_program(NODE node)
if(NOT NODE)
  skip_or_fail("node (>= 20) is not installed")
endif()
execute_process(COMMAND ${NODE} -e "process.exit(Number(process.versions.node.split('.')[0]) >= 20 ? 0 : 1)"
                RESULT_VARIABLE too_old)
if(too_old)
  skip_or_fail("node is older than 20")
endif()

if(STEP STREQUAL "install")
  find_program(NPM npm)
  if(NOT NPM)
    skip_or_fail("npm is not installed")
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
