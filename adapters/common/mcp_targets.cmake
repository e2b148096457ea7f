# The transport-independent MCP core (CONTRACT §5), part of scamcheck_common:
# JSON-RPC dispatch and protocol revisions (mcp_server), the tools
# (mcp_tools), the caller interface transports implement (mcp_context) and
# the locale catalogs (mcp_catalog, data/mcp_<locale>.json, compiled in).
# Included from CMakeLists.txt after scamcheck_common is defined.
file(GLOB scamcheck_mcp_catalogs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/data/mcp_*.json)
set(scamcheck_mcp_catalogs_cc ${CMAKE_CURRENT_BINARY_DIR}/mcp_catalog_data.cc)
add_custom_command(
  OUTPUT ${scamcheck_mcp_catalogs_cc}
  COMMAND ${CMAKE_COMMAND} -DDATA_DIR=${CMAKE_CURRENT_SOURCE_DIR}/data
          -DOUTPUT=${scamcheck_mcp_catalogs_cc}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/mcp_embed_catalogs.cmake
  DEPENDS ${scamcheck_mcp_catalogs} ${CMAKE_CURRENT_SOURCE_DIR}/mcp_embed_catalogs.cmake
  COMMENT "Embedding the MCP catalogs"
  VERBATIM)

target_sources(scamcheck_common PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/mcp_catalog.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/mcp_context.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/mcp_schema.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/mcp_server.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/mcp_tools.cc
  ${scamcheck_mcp_catalogs_cc})
target_link_libraries(scamcheck_common PRIVATE simdjson::simdjson)
