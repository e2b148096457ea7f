#include "explain/explain.h"

#include <algorithm>
#include <array>
#include <set>
#include <string_view>
#include <tuple>
#include <vector>

namespace scamcheck::internal {
namespace {

constexpr std::size_t kMaxReasons = 3;
constexpr std::size_t kMaxActions = 4;

std::string join_reasons(const Catalog& catalog, const std::vector<std::string_view>& titles) {
  std::string out;
  for (std::size_t i = 0; i < titles.size(); ++i) {
    if (i > 0) {
      out += i + 1 == titles.size() ? catalog.reason_last_separator : catalog.reason_separator;
    }
    out += titles[i];
  }
  return out;
}

// The signals emitted so far, one per key, span and location: scanned while
// few (most inputs), in a set once many (a document with thousands of
// links has thousands of signals).
class Emitted {
 public:
  using Entry = std::tuple<std::string_view, std::size_t, std::size_t, std::string_view>;
  bool insert(const Entry& e) {
    if (many_.empty()) {
      const auto end = few_.begin() + static_cast<std::ptrdiff_t>(count_);
      if (std::find(few_.begin(), end, e) != end) return false;
      if (count_ < kFew) {
        few_[count_++] = e;
        return true;
      }
      many_.insert(few_.begin(), few_.end());
    }
    return many_.insert(e).second;
  }

 private:
  static constexpr std::size_t kFew = 32;
  std::array<Entry, kFew> few_;  // in place: no allocation for the few
  std::size_t count_ = 0;
  std::set<Entry> many_;
};

}  // namespace

void explain(const Texts& texts, const Findings& findings, const Score& score,
             const TextOf& text_of, std::string_view locale, Report& report) {
  const Catalog& catalog = texts.catalog(locale);
  report.locale = catalog.locale;
  const int v = static_cast<int>(score.verdict);
  report.risk_text = catalog.risk_text[v];

  // Buffers reused from report to report on this thread.
  thread_local std::vector<std::string_view> reasons;
  thread_local std::vector<const std::string*> action_ids;  // in the glossary's entries
  thread_local std::vector<std::string_view>
      keys;  // keys with a signal so far (the glossary's at most)
  reasons.clear();
  action_ids.clear();
  keys.clear();
  Emitted emitted;
  // At most a signal per finding: no reallocation (and move of every
  // signal so far) as they are added.
  report.signals.reserve(report.signals.size() + score.ranked.size());
  for (std::size_t i : score.ranked) {
    const Finding& f = findings[i];
    const GlossaryEntry* entry = texts.find(f.key);
    const std::string_view source = text_of(f.location);
    if (!entry || f.end <= f.start || f.end > source.size()) continue;  // no evidence, no signal
    // One signal per key and evidence span. Looked up in sets, not by
    // scanning the signals so far: a document with thousands of links has
    // thousands of signals.
    if (!emitted.insert({f.key, f.start, f.end, f.location})) continue;
    const SignalTexts& t = entry->texts.at(catalog.locale);
    const bool first_of_key = std::find(keys.begin(), keys.end(), f.key) == keys.end();
    if (first_of_key) keys.push_back(f.key);
    Signal s;
    s.key = f.key;
    s.severity = f.severity.value_or(entry->default_severity);
    s.evidence = std::string(source.substr(f.start, f.end - f.start));
    s.location = f.location;
    s.span = {f.start, f.end};
    s.explanation = t.explanation;
    report.signals.push_back(std::move(s));
    if (first_of_key && score.weights[i] > 0) {
      if (reasons.size() < kMaxReasons) reasons.push_back(t.title);
      for (const std::string& id : entry->actions) {
        if (std::none_of(action_ids.begin(), action_ids.end(),
                         [&](const std::string* known) { return *known == id; })) {
          action_ids.push_back(&id);
        }
      }
    }
  }

  std::string summary =
      score.verdict == Verdict::kSafe && !reasons.empty() && !catalog.summary_safe_signs.empty()
          ? catalog.summary_safe_signs
          : catalog.summary[v];
  if (auto pos = summary.find("{reasons}"); pos != std::string::npos) {
    summary.replace(pos, 9, join_reasons(catalog, reasons));
  }
  // One strong sign is enough for the verdict: say so, naming it.
  if (score.strong_sign && *score.strong_sign < findings.size()) {
    const GlossaryEntry* entry = texts.find(findings[*score.strong_sign].key);
    if (entry && !catalog.strong_sign.empty()) {
      std::string note = catalog.strong_sign;
      if (auto pos = note.find("{sign}"); pos != std::string::npos) {
        note.replace(pos, 6, entry->texts.at(catalog.locale).title);
      }
      summary += " " + note;
    }
  }
  report.summary_plain = std::move(summary);

  report.actions.clear();
  if (score.verdict == Verdict::kSafe) {
    report.actions.push_back(catalog.actions.at("no_action_needed"));
    return;
  }
  for (const std::string* id : action_ids) {
    if (report.actions.size() == kMaxActions) break;
    report.actions.push_back(catalog.actions.at(*id));
  }
  if (report.actions.size() < kMaxActions && score.verdict == Verdict::kSuspicious) {
    report.actions.push_back(catalog.actions.at("stay_alert"));
  }
}

}  // namespace scamcheck::internal
