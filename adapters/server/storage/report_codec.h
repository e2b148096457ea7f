// The compact form the SQLite store keeps a report in: its JSON as a zstd
// frame made with a dictionary trained on reports (data/report_dictionary_N.zdict,
// tools/make_report_dictionary.sh). The benchmark's 2.8 KB SMS report
// becomes ~530 bytes (dev-split reports 5-10x smaller), so a database page
// holds several reports instead of one, and each scan
// writes that much less to the WAL and, at the checkpoint, to the database
// file. The frame names its dictionary by ID and carries a checksum;
// expanding gives back the JSON byte for byte. Rows written before (the
// JSON as text) are read as they are. Thread-safe.
#ifndef SCAMCHECK_ADAPTERS_SERVER_STORAGE_REPORT_CODEC_H_
#define SCAMCHECK_ADAPTERS_SERVER_STORAGE_REPORT_CODEC_H_

#include <string>
#include <string_view>

#include "scamcheck/status.h"

namespace scamcheck::server {

// The compact form of a report's JSON (made with the newest dictionary);
// empty when it cannot be made (then the JSON is stored as it is).
std::string compact_report(std::string_view json);

// The JSON of a compact form; an error when it is damaged or names a
// dictionary this build does not have.
Result<std::string> expand_report(std::string_view compact);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_STORAGE_REPORT_CODEC_H_
