// Pieces of the header checks (HeaderChecker, email/headers.cc) that
// are worth testing on their own: which brand a display name claims, and
// the list of mail providers (lists/mail_providers.txt).
#ifndef SCAMCHECK_EMAIL_HEADER_NAMES_H_
#define SCAMCHECK_EMAIL_HEADER_NAMES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "data/data_source.h"
#include "email/header_parse.h"
#include "scamcheck/status.h"
#include "url/brands.h"

namespace scamcheck::internal {

// Finds brand names in display names ("PayPal Service", "Sparkasse
// Kundenservice", "DHL-Express", "Amazon.de", "Bank of America"). The text
// is cut into pieces at blanks, punctuation, letter/digit changes and
// camel case ("PayPal" -> "Pay" "Pal", "AppleID" -> "Apple" "ID"); a run of
// up to five neighbouring pieces that spells a brand's token, word or name
// counts, so a brand is only found as whole words ("Amelia" is not
// "ameli", "Betsy" not "etsy"). Ambiguous short names (the brand table's
// host_words: "sky", "otto", "line") count only when the rest of the name is
// service vocabulary ("Ledger Support", "O2 Kundenservice"). Accented Latin
// letters are folded ("Crédit Agricole"). Immutable; thread-safe.
class DisplayNameBrands {
 public:
  explicit DisplayNameBrands(const BrandTable& brands);

  struct Claim {
    int brand;  // index into BrandTable::brands()
    Span span;  // the brand name as written, in the searched text
  };
  // Appends the brands named in text[within) to `out`, left to right, at
  // most one claim per brand.
  void find(std::string_view text, Span within, std::vector<Claim>& out) const;

 private:
  using Map = std::unordered_map<std::string, std::vector<int>, StringHash, std::equal_to<>>;
  // The brands a run of pieces spells exactly, by its look-alike skeleton
  // ("PayPaI", "Micros0ft", "Navy FederaI") or with one typo ("America
  // Express"); null if none. `pieces` is the number of pieces joined into
  // `key`; `ambiguous` is set for host_words.
  const std::vector<int>* lookup(const std::string& key, std::size_t pieces, std::string& scratch,
                                 bool& ambiguous) const;

  Map names_;      // tokens, words and spelled-out names
  Map ambiguous_;  // host_words
  Map skeletons_;  // ascii_skeleton of names_ keys of >= 5 characters
  // names_ keys of >= 8 characters by first letter, for the typo search.
  std::vector<std::string> long_names_[26];
};

// Whether `word` (lower case) is one of the words that accompany a sender's
// name without naming anyone: "support", "team", "kundenservice", "admin".
bool is_service_word(std::string_view word);
// Whether text[within) outside text[except) holds only such words (and
// punctuation): "example.com IT Helpdesk" around "example.com".
bool only_service_words(std::string_view text, Span within, Span except);

// lists/mail_providers.txt: which registrable domains are freemail, sending
// services, mailbox hosters or a brand's own sending domain.
class MailProviders {
 public:
  enum Tag : std::uint8_t { kFreemail = 1, kEsp = 2, kMailhost = 4, kBrandMail = 8 };
  static Result<MailProviders> load(const DataSource& data);
  // Tags of `registrable` (lower case), 0 if not listed.
  std::uint8_t tags(std::string_view registrable) const;

 private:
  std::unordered_map<std::string, std::uint8_t, StringHash, std::equal_to<>> tags_;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_HEADER_NAMES_H_
