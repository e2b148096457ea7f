// Base64 decoding (RFC 4648 §4 and §5), for links that carry another link
// encoded in a query parameter.
#ifndef SCAMCHECK_UTIL_BASE64_H_
#define SCAMCHECK_UTIL_BASE64_H_

#include <optional>
#include <string>
#include <string_view>

namespace scamcheck::internal {

// The bytes `in` encodes, in either alphabet ("+/" or the URL-safe "-_"),
// with or without '=' padding; nullopt if it holds any other character or
// cannot be a whole encoding (one character left over).
std::optional<std::string> base64_decode(std::string_view in);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_UTIL_BASE64_H_
