# Runs a test that may report itself skipped, for CTest:
#   cmake -P run_skippable.cmake -- COMMAND [ARG...]   (no argument may hold a ";")
# Passes its output through and its failure on. CTest reports a test whose
# output matches SKIP_REGULAR_EXPRESSION as skipped whatever its exit status,
# so when COMMAND fails, the marker (SCAMCHECK_SKIP:) in its output is made
# void first: a failing test is reported failed, never skipped.
set(command)
set(started FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(n RANGE 0 ${last})
  if(started)
    list(APPEND command "${CMAKE_ARGV${n}}")
  elseif(CMAKE_ARGV${n} STREQUAL "--")
    set(started TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "usage: cmake -P run_skippable.cmake -- COMMAND [ARG...]")
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE output
                ERROR_VARIABLE output)
if(NOT status STREQUAL "0")
  string(REPLACE "SCAMCHECK_SKIP:" "SCAMCHECK_SKIP (void, the test failed)" output "${output}")
endif()
message("${output}")
if(NOT status STREQUAL "0")
  message(FATAL_ERROR "exit status: ${status}")
endif()
