#include "explain/bound.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "util/utf8.h"

namespace scamcheck::internal {
namespace {

// JSON string sizes (quotes included) the fields are shortened to when a
// Report is over its byte limit.
constexpr std::size_t kEvidenceJsonBytes = 512;
constexpr std::size_t kSummaryJsonBytes = 2048;
constexpr std::size_t kActionJsonBytes = 512;
constexpr std::size_t kModelJsonBytes = 128;
// What extracted_text keeps at least before signals and urls are dropped.
constexpr std::size_t kExtractedMinJsonBytes = 16384;

std::size_t byte_cost(unsigned char c, bool valid) {
  if (c < 0x20) {
    return c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t' ? 2 : 6;  // \uXXXX
  }
  if (c == '"' || c == '\\') return 2;
  if (c >= 0x80 && !valid) return 3;  // at most one U+FFFD per byte
  return 1;
}

std::size_t number_size(long long n) { return std::to_string(n).size(); }
std::size_t number_size(std::size_t n) { return std::to_string(n).size(); }

// "name": plus the value, plus a comma (one too many per object: an upper bound).
std::size_t field(std::string_view name, std::size_t value_size) {
  return name.size() + 3 + value_size + 1;
}
std::size_t field(std::string_view name, std::string_view value) {
  return field(name, json_string_size_bound(value));
}

std::size_t signal_size(const Signal& s) {
  std::size_t n = 2;
  n += field("key", s.key);
  n += field("severity", to_string(s.severity));
  n += field("evidence", s.evidence);
  n += field("location", s.location);
  n += field("span",
             2 + field("start", number_size(s.span.start)) + field("end", number_size(s.span.end)));
  n += field("explanation", s.explanation);
  if (s.occurrences > 1)
    n += field("occurrences", number_size(static_cast<long long>(s.occurrences)));
  return n;
}

std::size_t url_size(const UrlInfo& u) {
  std::size_t n = 2;
  n += field("url", u.url);
  n += field("host", u.host);
  n += field("registrable_domain", u.registrable_domain);
  n += field("reputation", to_string(u.reputation));
  n += field("cached", 5);
  return n;
}

// Everything but the signals' and urls' elements.
std::size_t frame_size(const Report& r) {
  std::size_t n = 2;
  n += field("id", r.id);
  n += field("kind", to_string(r.kind));
  n += field("locale", r.locale);
  n += field("verdict", to_string(r.verdict));
  n += field("risk_score", number_size(static_cast<long long>(r.risk_score)));
  n += field("confidence", number_size(static_cast<long long>(r.confidence)));
  n += field("summary_plain", r.summary_plain);
  std::size_t actions = 2;
  for (const Action& a : r.actions)
    actions += 2 + field("icon", a.icon) + field("text", a.text) + 1;
  n += field("actions", actions);
  n += field("signals", 2);
  n += field("urls", 2);
  n += field("model_used", r.model_used);
  n += field("input_tokens", number_size(static_cast<long long>(r.input_tokens)));
  n += field("output_tokens", number_size(static_cast<long long>(r.output_tokens)));
  n += field("created_at", r.created_at);
  if (r.extracted_text) n += field("extracted_text", *r.extracted_text);
  if (r.truncated) n += field("truncated", 4);
  return n;
}

// A quick upper bound of report_json_size_bound(): every string byte as an
// escape, generous room for names, numbers and punctuation.
std::size_t quick_size_bound(const Report& r) {
  constexpr std::size_t kEscape = 6;
  std::size_t n = 1024 + kEscape * (r.id.size() + r.locale.size() + r.summary_plain.size() +
                                    r.model_used.size() + r.created_at.size());
  if (r.extracted_text) n += kEscape * r.extracted_text->size();
  for (const Action& a : r.actions) n += 64 + kEscape * (a.icon.size() + a.text.size());
  for (const Signal& s : r.signals) {
    n += 256 +
         kEscape * (s.key.size() + s.evidence.size() + s.location.size() + s.explanation.size());
  }
  for (const UrlInfo& u : r.urls) {
    n += 128 + kEscape * (u.url.size() + u.host.size() + u.registrable_domain.size());
  }
  return n;
}

// Cuts `text` (at a character boundary when it is valid UTF-8) so that its
// JSON string is at most `max_json` bytes. True when it was cut.
bool cut_to_json(std::string& text, std::size_t max_json) {
  if (json_string_size_bound(text) <= max_json) return false;
  const bool valid = is_valid_utf8(text);
  const std::size_t budget = max_json > 2 ? max_json - 2 : 0;
  std::size_t cost = 0;
  std::size_t end = 0;
  while (end < text.size()) {
    const std::size_t c = byte_cost(static_cast<unsigned char>(text[end]), valid);
    if (cost + c > budget) break;
    cost += c;
    ++end;
  }
  if (valid) {
    while (end > 0 && end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
      --end;
    }
  }
  text.resize(end);
  return true;
}

int url_strength(const UrlInfo& u) {
  switch (u.reputation) {
    case Reputation::kMalicious:
      return 2;
    case Reputation::kUnknown:
      return 1;
    case Reputation::kClean:
      return 0;
  }
  return 1;
}

// Indices 0..n-1, strongest first (earlier first among equals).
template <typename Stronger>
std::vector<std::size_t> ranked(std::size_t n, Stronger stronger) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), stronger);
  return order;
}

// Keeps the elements whose `keep` flag is set, in their order.
template <typename T>
void keep_marked(std::vector<T>& items, const std::vector<bool>& keep) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!keep[i]) continue;
    if (out != i) items[out] = std::move(items[i]);
    ++out;
  }
  items.resize(out);
}

// Folds each signal whose key and evidence came before into that first
// one's occurrences (and weight, severity: the stronger); `weights` is
// parallel to `signals`.
void fold_repeats(std::vector<Signal>& signals, std::vector<double>& weights) {
  std::unordered_map<std::string, std::size_t> first;
  std::vector<bool> keep(signals.size(), true);
  bool folded = false;
  const bool few = signals.size() <= 32;  // compared pairwise, no hashing
  for (std::size_t i = 0; i < signals.size(); ++i) {
    const Signal& s = signals[i];
    std::size_t at = i;
    if (few) {
      for (std::size_t j = 0; j < i && at == i; ++j) {
        if (keep[j] && signals[j].key == s.key && signals[j].evidence == s.evidence) at = j;
      }
    } else {
      std::string id = s.key;
      id.push_back('\0');
      id += s.evidence;
      at = first.try_emplace(std::move(id), i).first->second;
    }
    if (at == i) continue;
    Signal& kept = signals[at];
    kept.occurrences += s.occurrences;
    kept.severity = std::max(kept.severity, s.severity);
    weights[at] = std::max(weights[at], weights[i]);
    keep[i] = false;
    folded = true;
  }
  if (!folded) return;
  keep_marked(signals, keep);
  keep_marked(weights, keep);
}

}  // namespace

std::size_t json_string_size_bound(std::string_view text) {
  // byte_cost() summed (a report can carry a megabyte of extracted text):
  // eight bytes at a time while none of them needs an escape or is
  // non-ASCII, else one table look-up per byte; UTF-8 is checked only when
  // a byte needs it.
  static const auto kExtra = [] {
    std::array<unsigned char, 256> t{};
    for (int c = 0; c < 256; ++c) t[c] = static_cast<unsigned char>(byte_cost(c, true) - 1);
    return t;
  }();
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  // Non-zero iff a byte of x is zero / below 0x20 (exact for the test).
  const auto has_zero = [&](std::uint64_t x) { return (x - kOnes) & ~x & kHighs; };
  const auto has_control = [&](std::uint64_t x) { return (x - kOnes * 0x20) & ~x & kHighs; };
  std::size_t n = 2 + text.size();
  std::size_t high = 0;
  std::size_t i = 0;
  const char* p = text.data();
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t v;
    std::memcpy(&v, p + i, 8);
    if (((v & kHighs) | has_control(v) | has_zero(v ^ (kOnes * '"')) |
         has_zero(v ^ (kOnes * '\\'))) == 0) {
      continue;
    }
    for (std::size_t k = i; k < i + 8; ++k) {
      const auto c = static_cast<unsigned char>(p[k]);
      n += kExtra[c];
      high += c >> 7;
    }
  }
  for (; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    n += kExtra[c];
    high += c >> 7;
  }
  if (high > 0 && !is_valid_utf8(text)) n += 2 * high;  // byte_cost(c >= 0x80, false) is 3
  return n;
}

std::size_t report_json_size_bound(const Report& report) {
  std::size_t n = frame_size(report);
  for (const Signal& s : report.signals) n += signal_size(s) + 1;
  for (const UrlInfo& u : report.urls) n += url_size(u) + 1;
  return n;
}

void bound_report(Report& report, const SignalWeight& weight, std::size_t max_json_bytes) {
  // 1. One signal per key and evidence; repeats counted.
  std::vector<Signal>& signals = report.signals;
  for (Signal& s : signals) s.occurrences = std::max(s.occurrences, 1);
  // Most reports are far from every cap: nothing to rank, no weight asked.
  const bool fits = quick_size_bound(report) <= max_json_bytes;
  const bool may_rank = signals.size() > kMaxReportSignals || !fits;
  std::vector<double> weights(signals.size(), 0.0);
  if (may_rank && weight) {
    for (std::size_t i = 0; i < signals.size(); ++i) weights[i] = weight(signals[i]);
  }
  fold_repeats(signals, weights);
  const auto signal_stronger = [&](std::size_t a, std::size_t b) {
    if (signals[a].severity != signals[b].severity)
      return signals[a].severity > signals[b].severity;
    return weights[a] > weights[b];
  };
  const auto url_stronger = [&](std::size_t a, std::size_t b) {
    return url_strength(report.urls[a]) > url_strength(report.urls[b]);
  };

  // 2. At most kMaxReportSignals signals and kMaxReportUrls urls.
  if (signals.size() > kMaxReportSignals) {
    std::vector<std::size_t> order = ranked(signals.size(), signal_stronger);
    std::vector<bool> keep(signals.size(), false);
    for (std::size_t k = 0; k < kMaxReportSignals; ++k) keep[order[k]] = true;
    keep_marked(signals, keep);
    keep_marked(weights, keep);
    report.truncated = true;
  }
  if (report.urls.size() > kMaxReportUrls) {
    std::vector<std::size_t> order = ranked(report.urls.size(), url_stronger);
    std::vector<bool> keep(report.urls.size(), false);
    for (std::size_t k = 0; k < kMaxReportUrls; ++k) keep[order[k]] = true;
    keep_marked(report.urls, keep);
    report.truncated = true;
  }

  // 3. At most max_json_bytes of JSON.
  if (fits || report_json_size_bound(report) <= max_json_bytes) return;
  report.truncated = true;
  bool cut = false;
  for (Signal& s : signals) cut = cut_to_json(s.evidence, kEvidenceJsonBytes) || cut;
  // Evidence cut to the same prefix is the same evidence now.
  if (cut) fold_repeats(signals, weights);
  cut_to_json(report.summary_plain, kSummaryJsonBytes);
  for (Action& a : report.actions) {
    cut_to_json(a.icon, kActionJsonBytes);
    cut_to_json(a.text, kActionJsonBytes);
  }
  cut_to_json(report.model_used, kModelJsonBytes);
  std::size_t total = report_json_size_bound(report);
  if (total <= max_json_bytes) return;
  if (report.extracted_text) {
    const std::size_t own = json_string_size_bound(*report.extracted_text);
    const std::size_t rest = total - own;
    const std::size_t room = rest < max_json_bytes ? max_json_bytes - rest : 0;
    cut_to_json(*report.extracted_text, std::max(room, kExtractedMinJsonBytes));
    total = report_json_size_bound(report);
  }
  if (total > max_json_bytes) {
    // The weakest signals and urls go, the longer list first.
    const std::vector<std::size_t> s_order = ranked(signals.size(), signal_stronger);
    const std::vector<std::size_t> u_order = ranked(report.urls.size(), url_stronger);
    std::vector<bool> keep_s(signals.size(), true);
    std::vector<bool> keep_u(report.urls.size(), true);
    std::size_t s_left = signals.size();
    std::size_t u_left = report.urls.size();
    while (total > max_json_bytes && (s_left > 0 || u_left > 0)) {
      if (u_left > 0 && (u_left >= s_left)) {
        const std::size_t i = u_order[--u_left];
        keep_u[i] = false;
        total -= url_size(report.urls[i]) + 1;
      } else {
        const std::size_t i = s_order[--s_left];
        keep_s[i] = false;
        total -= signal_size(signals[i]) + 1;
      }
    }
    keep_marked(signals, keep_s);
    keep_marked(report.urls, keep_u);
  }
  if (total > max_json_bytes && report.extracted_text) {
    // Only a tiny limit gets here: extracted_text takes what is left.
    const std::size_t rest = total - json_string_size_bound(*report.extracted_text);
    cut_to_json(*report.extracted_text, rest < max_json_bytes ? max_json_bytes - rest : 2);
  }
}

}  // namespace scamcheck::internal
