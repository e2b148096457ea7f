// Link extraction from free text: full URLs, bare domains
// ("paypal-secure.com/login"), "www." forms and defanged forms
// ("hxxp://", "[.]", "(dot)"), each with its exact byte span.
#ifndef SCAMCHECK_EXTRACT_LINKS_H_
#define SCAMCHECK_EXTRACT_LINKS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "data/data_source.h"
#include "scamcheck/status.h"

namespace scamcheck::internal {

struct LinkMatch {
  std::size_t start = 0;  // byte span of the link as written in the text
  std::size_t end = 0;
  std::string url;        // refanged, with a scheme ("http://" added if none)
  bool defanged = false;  // written as hxxp://, [.], (dot), ...
  bool had_scheme = false;
};

// The lists link extraction reads: lists/word_tlds.txt and
// lists/file_extension_tlds.txt (lower case), which keep bare names such as
// "unsold.now" or "setup.py" from counting as links.
struct LinkLists {
  std::vector<std::string> word_tlds;
  std::vector<std::string> file_extension_tlds;

  static Result<LinkLists> load(const DataSource& data);
  // The lists of the embedded data pack, loaded once.
  static const LinkLists& embedded();
};

// Finds every link in `text` (valid UTF-8), in order of appearance, spans not
// overlapping. Bare host names count only when their last label is a known
// top-level domain (so "e.g." or "file.txt" are not links). The first form
// reads the embedded lists; pass lists loaded from Options::data_dir to
// honour that.
std::vector<LinkMatch> extract_links(std::string_view text);
std::vector<LinkMatch> extract_links(std::string_view text, const LinkLists& lists);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EXTRACT_LINKS_H_
