// Link extraction from free text: full URLs, bare domains
// ("paypal-secure.com/login"), "www." forms and defanged forms
// ("hxxp://", "[.]", "(dot)"), each with its exact byte span.
#ifndef SCAMCHECK_EXTRACT_LINKS_H_
#define SCAMCHECK_EXTRACT_LINKS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace scamcheck::internal {

struct LinkMatch {
  std::size_t start = 0;  // byte span of the link as written in the text
  std::size_t end = 0;
  std::string url;        // refanged, with a scheme ("http://" added if none)
  bool defanged = false;  // written as hxxp://, [.], (dot), ...
  bool had_scheme = false;
};

// Finds every link in `text` (valid UTF-8), in order of appearance, spans not
// overlapping. Bare host names count only when their last label is a known
// top-level domain (so "e.g." or "file.txt" are not links).
std::vector<LinkMatch> extract_links(std::string_view text);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EXTRACT_LINKS_H_
