// Percent-decoding (RFC 3986 §2.1), in one place.
#ifndef SCAMCHECK_UTIL_PERCENT_H_
#define SCAMCHECK_UTIL_PERCENT_H_

#include <string>
#include <string_view>

namespace scamcheck::internal {

// `in` with every "%XX" (two hex digits, either case) replaced by its byte.
// A '%' without two hex digits after it stays as it is, as browsers leave
// it; '+' is not a space. The result may hold any byte, NUL included.
std::string percent_decode(std::string_view in);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_UTIL_PERCENT_H_
