// The text stage (rules, unicode checks, links) as the stages that find text
// inside a container see it: an e-mail's subject and parts (email/), the text
// read from an image or document and its QR codes (decode/). AnalyzerImpl
// implements it; the narrow interface keeps those stages from its wiring.
#ifndef SCAMCHECK_TEXT_STAGE_H_
#define SCAMCHECK_TEXT_STAGE_H_

#include <algorithm>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "detect/finding.h"
#include "extract/links.h"
#include "normalize/normalize.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"

namespace scamcheck::internal {

class TextStage {
 public:
  virtual ~TextStage() = default;

  // Runs the text stages over `text`; findings get `location`. In a mail,
  // `sender_site` is the From address's registrable domain ("" otherwise).
  virtual Status detect_text(std::string_view text, std::string_view location,
                             std::string_view sender_site, Findings& findings,
                             Report& report) const = 0;

  // detect_text() of `normalized.original()`, already normalized for the
  // rules (NormalizedText(text, /*underscores_as_spaces=*/true)): a caller
  // that keeps the normalization (an e-mail's parts, for the model's
  // features) does not pay for it twice.
  virtual Status detect_normalized(const NormalizedText& normalized, std::string_view location,
                                   std::string_view sender_site, Findings& findings,
                                   Report& report) const = 0;

  // The URL analysis of one link of `text`: its findings (location left to
  // the caller) and its entry in report.urls.
  virtual void detect_link(std::string_view text, const LinkMatch& link,
                           std::string_view sender_site, Findings& findings,
                           Report& report) const = 0;
};

// One entry per URL, in order of first appearance: a container may repeat
// a link many times (a document can hold thousands: one hash look-up each).
inline void keep_first_of_each_url(std::vector<UrlInfo>& urls) {
  std::vector<bool> keep(urls.size(), false);
  {
    std::unordered_set<std::string_view> seen;
    seen.reserve(urls.size());
    for (std::size_t i = 0; i < urls.size(); ++i) keep[i] = seen.insert(urls[i].url).second;
  }
  std::size_t out = 0;
  for (std::size_t i = 0; i < urls.size(); ++i) {
    if (!keep[i]) continue;
    if (out != i) urls[out] = std::move(urls[i]);
    ++out;
  }
  urls.resize(out);
}

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_TEXT_STAGE_H_
