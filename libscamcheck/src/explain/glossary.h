// The signal glossary (data/glossary.json) and the per-locale catalogs
// (data/locales/<locale>.json): every human-readable text of a report.
#ifndef SCAMCHECK_EXPLAIN_GLOSSARY_H_
#define SCAMCHECK_EXPLAIN_GLOSSARY_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "data/data_source.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"

namespace scamcheck::internal {

struct SignalTexts {
  std::string title;        // noun phrase, used inside summaries
  std::string explanation;  // one sentence
};

struct GlossaryEntry {
  std::string key;
  Severity default_severity = Severity::kLow;
  std::vector<std::string> actions;          // action ids, most important first
  std::map<std::string, SignalTexts> texts;  // by locale
};

struct Catalog {
  std::string locale;
  std::string risk_text[3];  // by Verdict
  std::string summary[3];    // by Verdict; may contain "{reasons}"
  // The safe verdict's summary when signs were found, too weak together to
  // make the input suspicious: names them ({reasons}) instead of saying
  // that none were found. Optional, as strong_sign: a catalog without it
  // uses en's; without one in en, summary[safe].
  std::string summary_safe_signs;
  std::string reason_separator;
  std::string reason_last_separator;
  // Appended to the summary when a sign strong enough on its own was found
  // (Score::strong_sign); {sign} is that signal's title. Optional: a
  // catalog without it uses en's; without one in en, no such sentence.
  std::string strong_sign;
  std::map<std::string, Action> actions;  // by action id
};

// Glossary plus catalogs, loaded and cross-checked together: every key has
// texts in every catalog's locale, every action id exists in every catalog.
class Texts {
 public:
  static Result<std::unique_ptr<Texts>> load(const DataSource& data);

  const GlossaryEntry* find(std::string_view key) const;
  const std::vector<GlossaryEntry>& entries() const { return entries_; }

  // The catalog for a BCP 47 tag: exact match, then the language ("de-AT" ->
  // "de"), then "en".
  const Catalog& catalog(std::string_view locale) const;
  std::vector<std::string> locales() const;

 private:
  std::vector<GlossaryEntry> entries_;
  std::unordered_map<std::string_view, std::size_t> by_key_;
  std::map<std::string, Catalog, std::less<>> catalogs_;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EXPLAIN_GLOSSARY_H_
