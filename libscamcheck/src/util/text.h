// Token counting, identifiers and timestamps.
#ifndef SCAMCHECK_UTIL_TEXT_H_
#define SCAMCHECK_UTIL_TEXT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "util/utf8.h"  // is_valid_utf8, which most users of this header need

namespace scamcheck::internal {

// Number of maximal runs of letters and digits (Unicode categories L* and
// N*): the heuristic's input_tokens (CONTRACT §1). REQUIRES: valid UTF-8.
std::int64_t count_word_runs(std::string_view text);

// A new ULID (26 Crockford base32 characters: 48-bit milliseconds since the
// epoch, then 80 random bits), sortable by creation time, after `prefix`
// (one allocation for both).
std::string new_ulid(std::string_view prefix = {});

// The current UTC time as ISO 8601 with milliseconds and "Z".
std::string utc_now_iso8601();

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_UTIL_TEXT_H_
