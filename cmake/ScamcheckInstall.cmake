# Install rules and the installed package: headers, the library, the
# `scamcheck` program, the data pack, a CMake package (scamcheck::scamcheck)
# and a pkg-config file. Included by the top-level CMakeLists.txt when
# SCAMCHECK_INSTALL is ON.
#
# Consumers:
#   find_package(scamcheck 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE scamcheck::scamcheck)
# or
#   c++ -std=c++17 app.cc $(pkg-config --cflags --libs scamcheck)          # shared
#   c++ -std=c++17 app.cc $(pkg-config --static --cflags --libs scamcheck) # static
include(CMakePackageConfigHelpers)

set(SCAMCHECK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/scamcheck
    CACHE STRING "Where scamcheckConfig.cmake is installed, relative to the prefix")
mark_as_advanced(SCAMCHECK_INSTALL_CMAKEDIR)

get_target_property(_scamcheck_type scamcheck TYPE)
if(_scamcheck_type STREQUAL "STATIC_LIBRARY")
  set(SCAMCHECK_STATIC_LIBRARY ON)
else()
  set(SCAMCHECK_STATIC_LIBRARY OFF)
endif()

# --- the library and its headers ------------------------------------------
install(TARGETS scamcheck EXPORT scamcheckTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
          NAMELINK_COMPONENT development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/libscamcheck/include/scamcheck
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development
  FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/libscamcheck/include/scamcheck/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/scamcheck COMPONENT development)

# --- the data pack (the library also embeds it; this copy is for operators
# to read and override, and for Options::data_dir) ---------------------------
install(DIRECTORY ${PROJECT_SOURCE_DIR}/libscamcheck/data/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/scamcheck COMPONENT runtime)

# --- programs -----------------------------------------------------------------
if(TARGET scamcheck_cli)
  if(NOT SCAMCHECK_STATIC_LIBRARY AND NOT APPLE AND NOT WIN32)
    # Find libscamcheck.so relative to the program, wherever the prefix is.
    if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
      set(_rpath "${CMAKE_INSTALL_LIBDIR}")
    else()
      file(RELATIVE_PATH _rpath "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix/${CMAKE_INSTALL_LIBDIR}")
      set(_rpath "$ORIGIN/${_rpath}")
    endif()
    set_target_properties(scamcheck_cli PROPERTIES INSTALL_RPATH "${_rpath}")
  endif()
  install(TARGETS scamcheck_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()

# --- CMake package ------------------------------------------------------------
install(EXPORT scamcheckTargets
  NAMESPACE scamcheck::
  FILE scamcheckTargets.cmake
  DESTINATION ${SCAMCHECK_INSTALL_CMAKEDIR} COMPONENT development)
set(SCAMCHECK_INSTALL_DATA_DIR ${CMAKE_INSTALL_DATADIR}/scamcheck)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/scamcheckConfig.cmake.in
  ${PROJECT_BINARY_DIR}/scamcheckConfig.cmake
  INSTALL_DESTINATION ${SCAMCHECK_INSTALL_CMAKEDIR}
  PATH_VARS SCAMCHECK_INSTALL_DATA_DIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/scamcheckConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/scamcheckConfig.cmake
  ${PROJECT_BINARY_DIR}/scamcheckConfigVersion.cmake
  # A static libscamcheck needs its private dependencies at the consumer's
  # link step; the config file includes this to import them.
  ${CMAKE_CURRENT_LIST_DIR}/ScamcheckDependencies.cmake
  DESTINATION ${SCAMCHECK_INSTALL_CMAKEDIR} COMPONENT development)

# --- pkg-config -----------------------------------------------------------------
# Libs.private (used by `pkg-config --static`, i.e. for the static library)
# lists the link flags of the libraries libscamcheck links, resolved here:
# scamcheck_dep::x -> PkgConfig::_sc_<module> -> ${_sc_<module>_LDFLAGS}. So
# a dependency added in ScamcheckDependencies.cmake needs no change here.
# They are not put in Requires.private: on Debian the dependencies are shared
# libraries, and `pkg-config --static` would follow *their* Libs.private too
# (libcurl's asks for Kerberos, LDAP, zstd, ... static link flags that a
# normal system cannot satisfy).
set(_scamcheck_pc_libs "")
set(_scamcheck_pc_libdirs "")
get_target_property(_scamcheck_links scamcheck LINK_LIBRARIES)
foreach(_lib IN LISTS _scamcheck_links)
  set(_flags "")
  if(TARGET ${_lib})
    get_target_property(_real ${_lib} ALIASED_TARGET)
    if(NOT _real)
      set(_real ${_lib})
    endif()
    if(_real MATCHES "^PkgConfig::(.+)$")
      set(_flags ${${CMAKE_MATCH_1}_LDFLAGS})
    elseif(_real STREQUAL "simdjson::simdjson")
      set(_flags -lsimdjson)
    elseif(_real STREQUAL "Threads::Threads")
      set(_flags -pthread)
    endif()
  endif()
  if(NOT _flags AND NOT _lib MATCHES "^\\$<")
    message(WARNING "scamcheck.pc: no link flags known for '${_lib}'; "
                    "static consumers using pkg-config may fail to link")
  endif()
  foreach(_flag IN LISTS _flags)
    if(_flag MATCHES "^-L(.+)$")
      if(NOT CMAKE_MATCH_1 IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
        list(APPEND _scamcheck_pc_libdirs ${_flag})
      endif()
    else()
      list(APPEND _scamcheck_pc_libs ${_flag})
    endif()
  endforeach()
endforeach()
list(APPEND _scamcheck_pc_libs -pthread)
list(REMOVE_DUPLICATES _scamcheck_pc_libdirs)
list(REMOVE_DUPLICATES _scamcheck_pc_libs)
if(SCAMCHECK_STATIC_LIBRARY)
  list(JOIN _scamcheck_pc_libdirs " " _dirs)
  list(JOIN _scamcheck_pc_libs " " _libs)
  string(STRIP "${_dirs} ${_libs}" SCAMCHECK_PC_LIBS_PRIVATE)
else()
  set(SCAMCHECK_PC_LIBS_PRIVATE "")  # the shared library records its own dependencies
endif()

# A relocatable prefix: the .pc file finds the prefix relative to itself, so
# `cmake --install build --prefix DIR` works for any DIR.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(SCAMCHECK_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(SCAMCHECK_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH _rel "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" _rel "${_rel}")
  set(SCAMCHECK_PC_PREFIX "\${pcfiledir}/${_rel}")
  set(SCAMCHECK_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(SCAMCHECK_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(SCAMCHECK_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
if(SCAMCHECK_STATIC_LIBRARY)
  set(SCAMCHECK_PC_CFLAGS "")
else()
  set(SCAMCHECK_PC_CFLAGS " -DSCAMCHECK_SHARED_LIBRARY")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/scamcheck.pc.in ${PROJECT_BINARY_DIR}/scamcheck.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/scamcheck.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)
