// Where the data pack comes from: a directory, or the copy compiled into the
// library (embedded_data.cc, generated from libscamcheck/data at build time).
#ifndef SCAMCHECK_DATA_DATA_SOURCE_H_
#define SCAMCHECK_DATA_DATA_SOURCE_H_

#include <string>
#include <string_view>
#include <vector>

#include "scamcheck/status.h"

namespace scamcheck::internal {

class DataSource {
 public:
  // dir == "" selects the embedded pack.
  explicit DataSource(std::string dir) : dir_(std::move(dir)) {}

  // Reads a file by its path relative to the pack root, e.g.
  // "rules/text.json". kNotFound if it does not exist.
  Result<std::string> read(std::string_view relative_path) const;

  // Paths (relative to the pack root, sorted) of the files directly inside
  // the folder `relative_dir`, e.g. list("locales") -> {"locales/de.json", ...}.
  Result<std::vector<std::string>> list(std::string_view relative_dir) const;

  // For error messages: "<dir>/<path>" or "embedded:<path>".
  std::string describe(std::string_view relative_path) const;

 private:
  std::string dir_;
};

// Reads a one-entry-per-line list file: '#' starts a comment, blank lines
// are skipped, entries are trimmed.
std::vector<std::string> parse_list(std::string_view text);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DATA_DATA_SOURCE_H_
