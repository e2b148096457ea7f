// UTF-8 in one place: validation, decoding with replacement and repair.
// Built on simdjson (validation) and ICU's U8_* macros (decoding), so every
// module reads ill-formed bytes the same way: one U+FFFD per maximal
// ill-formed subpart (Unicode §3.9), as browsers do.
#ifndef SCAMCHECK_UTIL_UTF8_H_
#define SCAMCHECK_UTIL_UTF8_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace scamcheck::internal {

inline constexpr char32_t kReplacementChar = 0xFFFD;

bool is_valid_utf8(std::string_view text);

// One character decoded from UTF-8 and the bytes it took (at least 1).
struct Utf8Char {
  char32_t cp;
  std::size_t len;
};

// The character at text[pos]. An ill-formed sequence reads as U+FFFD and
// `len` is then the length of its maximal subpart. REQUIRES: pos < size.
Utf8Char decode_utf8(std::string_view text, std::size_t pos);

// Appends `cp` (a Unicode scalar value) to `out` as UTF-8.
void append_utf8(std::string& out, char32_t cp);

// `bytes` with every ill-formed sequence replaced by U+FFFD (see above).
// Valid input comes back unchanged.
std::string make_valid_utf8(std::string_view bytes);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_UTIL_UTF8_H_
