// Analyzer::signal_glossary(): the glossary as public value types, copied
// from the Texts the analyzer explains its signals with.
#include "analyzer_impl.h"

namespace scamcheck {

std::vector<GlossarySignal> Analyzer::signal_glossary() const {
  std::vector<GlossarySignal> out;
  const auto* impl = dynamic_cast<const internal::AnalyzerImpl*>(this);
  if (impl == nullptr) return out;  // a subclass outside the library
  const auto& entries = impl->texts().entries();
  out.reserve(entries.size());
  for (const internal::GlossaryEntry& entry : entries) {
    GlossarySignal signal;
    signal.key = entry.key;
    signal.default_severity = entry.default_severity;
    for (const auto& [locale, texts] : entry.texts) {
      signal.texts[locale] = GlossarySignal::Texts{texts.title, texts.explanation};
    }
    out.push_back(std::move(signal));
  }
  return out;
}

}  // namespace scamcheck
