#include "decode/document.h"

#include "decode/charset.h"

namespace scamcheck::internal {

bool cut_document_text(std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return false;
  auto blank = [&](std::size_t i) { return text[i] == ' ' || text[i] == '\n' || text[i] == '\t'; };
  constexpr std::size_t kLookBack = 1024;
  const std::size_t floor = max_bytes > kLookBack ? max_bytes - kLookBack : 0;
  std::size_t end = max_bytes;
  while (end > floor && !blank(end)) --end;
  // No blank near the limit: the last character that fits whole.
  if (!blank(end)) end = truncate_utf8(text, max_bytes).size();
  while (end > 0 && blank(end - 1)) --end;
  text.resize(end);
  return true;
}

}  // namespace scamcheck::internal
