// Unit tests of the MCP endpoint's HTTP pieces (adapters/server/mcp/mcp_http.h):
// Origin normalization and the body limit of MCP requests. The endpoint as a
// whole is tested through real clients in tests/mcp.
#include <doctest/doctest.h>

#include "http/router.h"
#include "mcp/mcp_http.h"
#include "server_limits.h"

namespace scamcheck::server {
namespace {

TEST_CASE("normalize_origin: scheme and host lower-cased, default ports dropped") {
  CHECK(normalize_origin("https://Example.COM") == "https://example.com");
  CHECK(normalize_origin("https://example.com:443/base/path?q=1#f") == "https://example.com");
  CHECK(normalize_origin("http://example.com:80") == "http://example.com");
  CHECK(normalize_origin("http://example.com:8080") == "http://example.com:8080");
  CHECK(normalize_origin("https://example.com:80") == "https://example.com:80");
  CHECK(normalize_origin("HTTP://user:secret@127.0.0.1:3000/") == "http://127.0.0.1:3000");
  CHECK(normalize_origin("http://[::1]:8080") == "http://[::1]:8080");
  CHECK(normalize_origin("http://[::1]") == "http://[::1]");
  CHECK(normalize_origin("null").empty());
  CHECK(normalize_origin("file:///etc/passwd").empty());
  CHECK(normalize_origin("chrome-extension://abcdef").empty());
  CHECK(normalize_origin("http://").empty());
}

TEST_CASE("MCP bodies may be 16 MiB, other JSON bodies 512 KiB") {
  CHECK(max_body_bytes("/mcp/scamcheck", "application/json") == kMaxMcpBodyBytes);
  CHECK(max_body_bytes("/api/v1/scan", "application/json") == kMaxJsonBodyBytes);
  CHECK(max_body_bytes("/api/v1/scan", "multipart/form-data; boundary=x") ==
        kMaxMultipartBodyBytes);
}

TEST_CASE("the MCP route: POST /mcp/{mcp_name}, any token, checked before auth") {
  const RouteSpec route = mcp_route();
  CHECK(route.method == "POST");
  CHECK(route.path == "/mcp/{mcp_name}");
  REQUIRE(route.ability.has_value());
  CHECK(route.ability->empty());
  CHECK(static_cast<bool>(route.admit));
  CHECK(static_cast<bool>(route.handler));
}

}  // namespace
}  // namespace scamcheck::server
