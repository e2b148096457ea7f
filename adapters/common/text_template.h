// Catalog texts with placeholders: "{name}" stands for the value of the
// variable `name`; a placeholder without a value stays as written.
#ifndef SCAMCHECK_ADAPTERS_COMMON_TEXT_TEMPLATE_H_
#define SCAMCHECK_ADAPTERS_COMMON_TEXT_TEMPLATE_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace scamcheck::adapters {

using TextVars = std::vector<std::pair<std::string_view, std::string>>;

// `text` with each {name} replaced by its value in `vars`.
std::string fill_placeholders(std::string_view text, const TextVars& vars);

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_TEXT_TEMPLATE_H_
