// Small helpers for reading the data pack's JSON files with simdjson's DOM.
#ifndef SCAMCHECK_UTIL_JSON_H_
#define SCAMCHECK_UTIL_JSON_H_

#include <simdjson.h>

#include <string>
#include <string_view>

#include "scamcheck/status.h"

namespace scamcheck::internal {

// Parses `text` (the contents of `name`) into `doc`, and checks that it is an
// object with "version": 1.
Status parse_data_file(simdjson::dom::parser& parser, const std::string& text,
                       std::string_view name, simdjson::dom::element& doc);

// Returns the string member `field` of `obj`, or "" if absent / not a string.
std::string_view string_field(simdjson::dom::object obj, std::string_view field);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_UTIL_JSON_H_
