// Fuzzes link extraction: spans in bounds, ordered, not overlapping.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "extract/links.h"
#include "util/text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (size > 65536 || !scamcheck::internal::is_valid_utf8(text)) return 0;
  std::size_t previous_end = 0;
  for (const auto& link : scamcheck::internal::extract_links(text)) {
    if (link.start < previous_end || link.start >= link.end || link.end > size) std::abort();
    if (link.url.empty()) std::abort();
    previous_end = link.end;
  }
  return 0;
}
