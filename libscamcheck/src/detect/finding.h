// Finding: the internal form of a signal before scoring and localization.
#ifndef SCAMCHECK_DETECT_FINDING_H_
#define SCAMCHECK_DETECT_FINDING_H_

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scamcheck/report.h"

namespace scamcheck::internal {

// One detector hit. `start`/`end` are byte offsets into the text named by
// `location` (for kinds text and url: the submitted content itself), so the
// evidence is always text.substr(start, end - start) and never empty.
// Severity comes from the glossary and the weight from data/scoring.json;
// a detector may scale the weight with `strength` (e.g. a closer lookalike).
struct Finding {
  // The one way to make a finding: its key and span; the rest as needed.
  static Finding at(std::string key, std::size_t start, std::size_t end,
                    std::string location = "content") {
    Finding f;
    f.key = std::move(key);
    f.start = start;
    f.end = end;
    f.location = std::move(location);
    return f;
  }

  std::string key;  // glossary key, e.g. "brand_lookalike"
  std::size_t start = 0;
  std::size_t end = 0;
  std::string location = "content";
  double strength = 1.0;  // multiplies the key's weight; 1.0 = as configured
  double weight = 0;      // if > 0, overrides the key's weight (rule files)
  // Only evidence next to other signs of a scam (a phone number, an IBAN):
  // dropped unless a finding without this flag is present too.
  bool requires_context = false;
  // A rule's own severity ("severity" in the rule file), else the key's
  // default from the glossary. A sign whose severity has a floor in
  // scoring.json ("severity_floors") sets the input's lowest risk score.
  std::optional<Severity> severity;
};

using Findings = std::vector<Finding>;

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DETECT_FINDING_H_
