// Byte-to-UTF-8 helpers for decoded email text: the fallbacks mail clients
// use when a charset is absent, wrong or unknown, and the final guarantee
// that every text handed to the detectors is valid UTF-8.
#ifndef SCAMCHECK_DECODE_CHARSET_H_
#define SCAMCHECK_DECODE_CHARSET_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "util/utf8.h"  // make_valid_utf8, the last step of every decoded text

namespace scamcheck::internal {

// Windows-1252 (the WHATWG reading of "iso-8859-1" and "us-ascii" with
// 8-bit bytes) to UTF-8, byte by byte from a table (ASCII runs copied).
// Never fails: the five undefined bytes map to the C1 controls of the same
// value, as in Latin-1 (and in ICU's converter).
std::string windows1252_to_utf8(std::string_view bytes);

// Text without a usable charset: as is when it is valid UTF-8, otherwise
// Windows-1252.
std::string guess_to_utf8(std::string_view bytes);

// The longest prefix of valid UTF-8 `text` that is at most `max_bytes` long
// and does not split a character.
std::string_view truncate_utf8(std::string_view text, std::size_t max_bytes);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DECODE_CHARSET_H_
