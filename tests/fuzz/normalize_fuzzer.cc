// Fuzzes normalization: every normalized range maps back inside the input,
// on a valid UTF-8 boundary.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "normalize/normalize.h"
#include "util/text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (size > 65536 || !scamcheck::internal::is_valid_utf8(text)) return 0;
  scamcheck::internal::NormalizedText normalized(text);
  const std::size_t n = normalized.text().size();
  for (std::size_t i = 0; i < n; i += 1 + i / 8) {
    auto [start, end] = normalized.to_original(i, std::min(n, i + 3));
    if (start >= end || end > size) std::abort();
    if (!scamcheck::internal::is_valid_utf8(text.substr(start, end - start))) std::abort();
  }
  return 0;
}
