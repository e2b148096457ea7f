#include "decode/document.h"

#include <algorithm>

namespace scamcheck::internal {

bool cut_document_text(std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return false;
  constexpr std::size_t kLookBack = 1024;
  std::size_t end = max_bytes;
  const std::size_t floor = max_bytes > kLookBack ? max_bytes - kLookBack : 0;
  std::size_t blank = end;
  while (blank > floor && text[blank] != ' ' && text[blank] != '\n' && text[blank] != '\t') {
    --blank;
  }
  if (blank > floor || text[blank] == ' ' || text[blank] == '\n' || text[blank] == '\t') {
    end = blank;
  } else {
    // No blank near the limit: the last character that fits whole.
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  }
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\n' || text[end - 1] == '\t')) {
    --end;
  }
  text.resize(end);
  return true;
}

}  // namespace scamcheck::internal
