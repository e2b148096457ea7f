// The Analyzer: build once, share across threads, call analyze() anywhere.
#ifndef SCAMCHECK_ANALYZER_H_
#define SCAMCHECK_ANALYZER_H_

#include <memory>
#include <string_view>

#include "scamcheck/export.h"
#include "scamcheck/options.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"

namespace scamcheck {

// Immutable after create(): every member function is const and safe to call
// from many threads at once without locking. Neither copyable nor movable;
// hold it in the unique_ptr create() returns (or move that into a
// shared_ptr to share it).
class SCAMCHECK_EXPORT Analyzer {
 public:
  // Loads and validates the data pack (rules, brands, catalogs, glossary).
  // Fails with a Status naming every problem found (file and rule id), never
  // with a half-built analyzer.
  static Result<std::unique_ptr<Analyzer>> create(const Options& options = {});

  virtual ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  // Analyzes `content` of the given kind and returns a Report, localized for
  // `locale` (a BCP 47 tag; "de-AT" falls back to "de", unknown tags to
  // "en"). Errors (kInvalidArgument for empty content, invalid UTF-8 or an
  // unsupported kind; kOutOfRange for content over kMaxContentBytes) come
  // back as a Status; this never throws.
  virtual Result<Report> analyze(std::string_view content, Kind kind = Kind::kText,
                                 std::string_view locale = "en") const = 0;

  // As above, with the kind given by its wire name ("text", "url", ...).
  // An unknown name is kInvalidArgument.
  Result<Report> analyze(std::string_view content, std::string_view kind,
                         std::string_view locale) const;

 protected:
  Analyzer() = default;
};

}  // namespace scamcheck

#endif  // SCAMCHECK_ANALYZER_H_
