# A test whose tool was not found at configure time:
#   cmake -DWHAT=python3 -P missing_tool.cmake
# skips (SCAMCHECK_SKIP:) unless the environment variable CI is set.
if(DEFINED ENV{CI})
  message(FATAL_ERROR "${WHAT} is not installed (CI is set, so this is a failure)")
endif()
message("SCAMCHECK_SKIP: ${WHAT} is not installed")
