// The server's locale catalogs (data/locales/<locale>.json, compiled in):
// every text of a problem document comes from here (CONTRACT §1). Locales
// fall back de-AT -> de -> en; a key missing in a locale falls back to en.
#ifndef SCAMCHECK_ADAPTERS_SERVER_HTTP_CATALOG_H_
#define SCAMCHECK_ADAPTERS_SERVER_HTTP_CATALOG_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/text_template.h"
#include "scamcheck/status.h"

namespace scamcheck::server {

using TextVars = adapters::TextVars;

// Immutable after load(); thread-safe.
class Catalog {
 public:
  // Loads and checks every embedded catalog: each must be valid, and en
  // must have every key another locale has.
  static Result<std::shared_ptr<const Catalog>> load();

  // The catalog locale for a BCP 47 tag: "de-AT" -> "de"; unknown -> "en".
  std::string resolve(std::string_view tag) const;
  // The text of `key` in `locale` (a resolved locale) with each {name}
  // replaced by its value. An unknown key returns the key itself.
  std::string text(std::string_view locale, std::string_view key, const TextVars& vars = {}) const;

 private:
  std::map<std::string, std::map<std::string, std::string, std::less<>>, std::less<>> messages_;
};

// The preferred language tag of an Accept-Language header value (highest
// q, first on a tie), or "" when there is none.
std::string preferred_language(std::string_view accept_language);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_HTTP_CATALOG_H_
