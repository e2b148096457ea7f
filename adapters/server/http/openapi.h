// The OpenAPI 3.1 document served at /docs/api, generated from the route
// table (route_table.h) and the schema components below: a route's
// method, path, parameters, request and responses are declared once.
#ifndef SCAMCHECK_ADAPTERS_SERVER_HTTP_OPENAPI_H_
#define SCAMCHECK_ADAPTERS_SERVER_HTTP_OPENAPI_H_

#include <string>
#include <vector>

#include "http/route_table.h"

namespace scamcheck::server {

// The document as compact JSON.
std::string generate_openapi(const std::vector<RouteSpec>& routes);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_HTTP_OPENAPI_H_
