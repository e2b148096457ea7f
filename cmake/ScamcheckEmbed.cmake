# scamcheck_embed_files(<target> ROOT <dir> PATTERNS <glob>... INCLUDE <header>
#                       NAMESPACE <ns> FUNCTION <name> TYPE <struct>
#                       [CONTAINER span|vector] [COMMENT <text>])
# Compiles the files under ROOT matching PATTERNS (relative globs, searched
# recursively) into <target> as byte arrays behind FUNCTION() (see
# cmake/EmbedFiles.cmake); they are re-embedded when one changes.
set(SCAMCHECK_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/EmbedFiles.cmake)

function(scamcheck_embed_files target)
  cmake_parse_arguments(arg "" "ROOT;INCLUDE;NAMESPACE;FUNCTION;TYPE;CONTAINER;COMMENT"
                        "PATTERNS" ${ARGN})
  if(NOT arg_CONTAINER)
    set(arg_CONTAINER span)
  endif()
  set(globs "")
  foreach(p IN LISTS arg_PATTERNS)
    list(APPEND globs "${arg_ROOT}/${p}")
  endforeach()
  file(GLOB_RECURSE inputs CONFIGURE_DEPENDS ${globs})
  string(REPLACE ";" "|" patterns "${arg_PATTERNS}")
  set(output ${CMAKE_CURRENT_BINARY_DIR}/${target}_${arg_FUNCTION}.cc)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DROOT=${arg_ROOT} "-DPATTERNS=${patterns}" -DOUTPUT=${output}
            -DINCLUDE=${arg_INCLUDE} -DNAMESPACE=${arg_NAMESPACE} -DFUNCTION=${arg_FUNCTION}
            -DTYPE=${arg_TYPE} -DCONTAINER=${arg_CONTAINER} -P ${SCAMCHECK_EMBED_SCRIPT}
    DEPENDS ${inputs} ${SCAMCHECK_EMBED_SCRIPT}
    COMMENT "${arg_COMMENT}"
    VERBATIM)
  target_sources(${target} PRIVATE ${output})
endfunction()
