// The checks the connection layer makes on a request head before it reads
// a body (RFC 9112): request-target forms (§3.2) and message framing
// (§6.1, §6.3). A head that fails them is answered 400 and the connection
// is closed, so no byte after it can be read as another request.
#ifndef SCAMCHECK_ADAPTERS_SERVER_HTTP_FRAMING_H_
#define SCAMCHECK_ADAPTERS_SERVER_HTTP_FRAMING_H_

#include <string>
#include <string_view>

#include "http/http_types.h"

namespace scamcheck::server {

// Splits a request-target into path and query. Origin-form ("/p?q") as
// sent; absolute-form ("http://host[:port]/p?q", RFC 9112 §3.2.2) gives its
// path ("/" when empty) and query, and the authority is only checked for
// shape (no userinfo, host characters only): the Host header and the
// authority are not compared with the server's name (no virtual hosts).
// Authority-form (CONNECT) and asterisk-form ("*") are not served; those
// and anything else give false.
bool split_request_target(std::string_view target, std::string* path, std::string* query);

// Why a request head (its header fields, HTTP/1.`minor`) cannot be served,
// or "" when it can. Refused (400, then close):
//   - Transfer-Encoding other than exactly "chunked" (one field, one
//     coding): "xchunked", "chunked, identity" (chunked not last: the
//     length cannot be determined, §6.3), "gzip, chunked" (a coding this
//     server does not decode; §6.1 allows 501 there, one answer for every
//     refused framing keeps it simple), or Transfer-Encoding in HTTP/1.0;
//   - Transfer-Encoding and Content-Length together (§6.3: a smuggling
//     attempt);
//   - a Content-Length that is not one field of digits;
//   - more than one Host or Authorization field; no Host in HTTP/1.1.
std::string_view framing_problem(const HeaderList& headers, unsigned minor);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_HTTP_FRAMING_H_
