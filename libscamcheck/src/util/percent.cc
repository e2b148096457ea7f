#include "util/percent.h"

#include <curl/curl.h>

#include <memory>

namespace scamcheck::internal {

std::string percent_decode(std::string_view in) {
  // libcurl reads a length of 0 as "use strlen()".
  if (in.empty() || in.find('%') == std::string_view::npos) return std::string(in);
  int length = 0;
  // The handle is unused (libcurl >= 7.82).
  const std::unique_ptr<char, decltype(&curl_free)> decoded(
      curl_easy_unescape(nullptr, in.data(), static_cast<int>(in.size()), &length), &curl_free);
  if (decoded == nullptr) return std::string(in);  // out of memory
  return std::string(decoded.get(), static_cast<std::size_t>(length));
}

}  // namespace scamcheck::internal
