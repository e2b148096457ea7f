// Options for Analyzer::create(). A plain aggregate: use designated
// initializers, e.g. scamcheck::Options{.data_dir = "/usr/share/scamcheck"}.
#ifndef SCAMCHECK_OPTIONS_H_
#define SCAMCHECK_OPTIONS_H_

#include <cstddef>
#include <string>

namespace scamcheck {

// Largest content analyze() accepts, in bytes (CONTRACT §1: 64 KiB).
inline constexpr std::size_t kMaxContentBytes = 65536;

struct Options {
  // Directory holding the data pack (rules/, lists/, locales/, glossary.json,
  // scoring.json), laid out like libscamcheck/data. Empty ("", the default)
  // uses the pack compiled into the library, so it works with no files
  // installed. Files are read once, in create(), and validated there.
  std::string data_dir;
};

}  // namespace scamcheck

#endif  // SCAMCHECK_OPTIONS_H_
