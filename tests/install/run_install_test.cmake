# Driver of the install_consumer test (see CMakeLists.txt beside this file):
#   cmake -DBUILD_DIR=... -DWORK_DIR=... -DCONSUMER_DIR=... -DGENERATOR=...
#         -DCXX=... [-DCXX_FLAGS=...] -DLIBDIR=lib -DBINDIR=bin -DDATADIR=share
#         [-DPKG_CONFIG=...] [-DSHARED=ON] [-DCONFIG=Release] -P run_install_test.cmake
cmake_minimum_required(VERSION 3.25)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok")
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
if(NOT CONFIG)
  set(CONFIG Release)
endif()

# 1. Install this build into a scratch prefix.
run("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${CONFIG})
foreach(f include/scamcheck/scamcheck.h include/scamcheck/version.h
          ${LIBDIR}/cmake/scamcheck/scamcheckConfig.cmake
          ${LIBDIR}/cmake/scamcheck/scamcheckConfigVersion.cmake
          ${LIBDIR}/pkgconfig/scamcheck.pc ${DATADIR}/scamcheck/glossary.json)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
if(EXISTS ${prefix}/${BINDIR}/scamcheck)
  run("installed scamcheck --version" ${prefix}/${BINDIR}/scamcheck --version)
endif()

# 2. A CMake consumer: find_package(scamcheck) + scamcheck::scamcheck.
run("configure the CMake consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/cmake-build
    -G ${GENERATOR} -DCMAKE_BUILD_TYPE=${CONFIG} -DCMAKE_CXX_COMPILER=${CXX}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" -DCMAKE_PREFIX_PATH=${prefix})
run("build the CMake consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/cmake-build --config ${CONFIG})
set(exe ${WORK_DIR}/cmake-build/consumer)
if(NOT EXISTS ${exe})
  set(exe ${WORK_DIR}/cmake-build/${CONFIG}/consumer)
endif()
run("run the CMake consumer" ${exe})
message(STATUS "${run_output}")

# 3. A pkg-config consumer, compiled by hand.
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
  set(static "")
  if(NOT SHARED)
    set(static --static)
  endif()
  run("pkg-config" ${PKG_CONFIG} ${static} --cflags --libs scamcheck)
  string(STRIP "${run_output}" pc_flags)
  separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
  separate_arguments(extra UNIX_COMMAND "${CXX_FLAGS}")
  run("build the pkg-config consumer" ${CXX} -std=c++17 ${extra} ${CONSUMER_DIR}/main.cc
      -o ${WORK_DIR}/pc-consumer ${pc_flags})
  set(ENV{LD_LIBRARY_PATH} ${prefix}/${LIBDIR})
  run("run the pkg-config consumer" ${WORK_DIR}/pc-consumer ${prefix}/${DATADIR}/scamcheck)
  message(STATUS "${run_output}")
else()
  message(STATUS "pkg-config not found; skipping the pkg-config consumer")
endif()
