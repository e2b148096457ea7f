# The transport-independent MCP core (CONTRACT §5), part of scamcheck_common:
# JSON-RPC dispatch and protocol revisions (mcp_server), the tools
# (mcp_tools), the caller interface transports implement (mcp_context) and
# the locale catalogs (mcp_catalog, data/mcp_<locale>.json, compiled in).
# Included from CMakeLists.txt after scamcheck_common is defined.

target_sources(scamcheck_common PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/mcp_catalog.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/mcp_context.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/mcp_schema.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/mcp_server.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/mcp_tools.cc)
scamcheck_embed_files(scamcheck_common
  ROOT ${CMAKE_CURRENT_SOURCE_DIR}/data PATTERNS mcp_*.json
  INCLUDE common/mcp_catalog.h NAMESPACE scamcheck::adapters
  FUNCTION mcp_embedded_catalogs TYPE McpCatalogFile CONTAINER vector
  COMMENT "Embedding the MCP catalogs")
target_link_libraries(scamcheck_common PRIVATE simdjson::simdjson)
