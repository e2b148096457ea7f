# `cmake --install` of scamcheck-native-host into a scratch prefix (only its
# own install script, so nothing else needs building): the program and the
# host manifests for Chromium, Chrome and Firefox, each naming the installed
# program's absolute path.
#   cmake -DBINARY_DIR=<build>/adapters/native-host -DWORK=<scratch dir> -P install_manifests_test.cmake
file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
execute_process(COMMAND ${CMAKE_COMMAND} -DCMAKE_INSTALL_PREFIX=${prefix}
                        -P ${BINARY_DIR}/cmake_install.cmake
                RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "installing scamcheck-native-host failed")
endif()
file(GLOB_RECURSE program LIST_DIRECTORIES false ${prefix}/*/scamcheck-native-host)
list(LENGTH program count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one installed scamcheck-native-host, found: ${program}")
endif()
foreach(dir_and_key
        "etc/chromium/native-messaging-hosts;allowed_origins"
        "etc/opt/chrome/native-messaging-hosts;allowed_origins"
        "lib/mozilla/native-messaging-hosts;allowed_extensions")
  list(GET dir_and_key 0 dir)
  list(GET dir_and_key 1 key)
  set(file ${prefix}/${dir}/org.scamcheck.native_host.json)
  if(NOT EXISTS ${file})
    message(FATAL_ERROR "missing ${file}")
  endif()
  file(READ ${file} json)
  string(JSON name GET "${json}" name)
  string(JSON path GET "${json}" path)
  string(JSON type GET "${json}" type)
  string(JSON allowed GET "${json}" ${key} 0)
  if(NOT name STREQUAL "org.scamcheck.native_host" OR NOT type STREQUAL "stdio"
     OR NOT path STREQUAL program OR allowed STREQUAL "")
    message(FATAL_ERROR "wrong manifest ${file}:\n${json}")
  endif()
  message(STATUS "${dir}: ${path}, ${key} ${allowed}")
endforeach()
file(REMOVE_RECURSE ${WORK})
