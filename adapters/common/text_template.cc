#include "common/text_template.h"

namespace scamcheck::adapters {

std::string fill_placeholders(std::string_view text, const TextVars& vars) {
  std::string out;
  out.reserve(text.size() + 64);
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '{') {
      const std::size_t close = text.find('}', i + 1);
      if (close != std::string_view::npos) {
        const std::string_view name = text.substr(i + 1, close - i - 1);
        const std::string* value = nullptr;
        for (const auto& [var, v] : vars) {
          if (var == name) {
            value = &v;
            break;
          }
        }
        if (value != nullptr) {
          out += *value;
          i = close + 1;
          continue;
        }
      }
    }
    out.push_back(text[i++]);
  }
  return out;
}

}  // namespace scamcheck::adapters
