// The Report: what the analyzer concluded about one input, and why.
// Plain value types; the JSON mapping lives in the adapters.
#ifndef SCAMCHECK_REPORT_H_
#define SCAMCHECK_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scamcheck/export.h"

namespace scamcheck {

// What kind of content is analyzed (CONTRACT §1 "Kinds").
enum class Kind {
  kText,      // SMS, chat, any plain text (the default)
  kEmail,     // raw RFC 822 message with headers
  kUrl,       // one URL, scheme optional
  kImage,     // PNG, JPEG, WebP, GIF, TIFF, BMP
  kDocument,  // PDF, DOCX
};

// The closed verdict set: score 0-29 safe, 30-69 suspicious, 70-100 danger.
enum class Verdict { kSafe, kSuspicious, kDanger };

enum class Severity { kLow, kMedium, kHigh };

enum class Reputation { kUnknown, kClean, kMalicious };

// Wire names: "text", "safe", "high", "unknown", ...
SCAMCHECK_EXPORT std::string_view to_string(Kind kind);
SCAMCHECK_EXPORT std::string_view to_string(Verdict verdict);
SCAMCHECK_EXPORT std::string_view to_string(Severity severity);
SCAMCHECK_EXPORT std::string_view to_string(Reputation reputation);
// Parses a wire name ("text", "email", "url", "image", "document").
SCAMCHECK_EXPORT std::optional<Kind> parse_kind(std::string_view name);
// The verdict for a score (0-100) per CONTRACT §1.
SCAMCHECK_EXPORT Verdict verdict_for_score(int score);

// Byte offsets [start, end) into the text named by Signal::location.
struct Span {
  std::size_t start = 0;
  std::size_t end = 0;
};

// One indicator, always with the verbatim evidence that caused it:
// text_of(location).substr(span.start, span.end - span.start) == evidence.
// (Only in a truncated Report may a long evidence be cut short to keep the
// Report within its size bound: it is then a prefix of that text, and the
// span still covers the whole of it.)
struct Signal {
  std::string key;  // stable glossary slug, e.g. "credential_request"
  Severity severity = Severity::kLow;
  std::string evidence;  // verbatim input bytes
  std::string location;  // "content", "header:From", "body", "ocr", ...
  Span span;
  std::string explanation;  // localized one-sentence meaning of `key`
  // How often the same key with the same evidence occurred in the input
  // (CONTRACT §10): the Report keeps the first occurrence and counts the
  // rest here. 1 unless repeated; JSON leaves it out when 1.
  int occurrences = 1;
};

// A recommended action; `icon` is one emoji.
struct Action {
  std::string icon;
  std::string text;
};

// A URL found in the input.
struct UrlInfo {
  std::string url;                 // as analyzed (refanged, scheme added)
  std::string host;                // lower-case; Unicode hosts as punycode
  std::string registrable_domain;  // eTLD+1 by the Public Suffix List; may be empty
  Reputation reputation = Reputation::kUnknown;
  bool cached = false;  // reputation answer came from the cache
};

// Every Report the library returns is bounded (CONTRACT §10), whatever the
// input: one signal per key and evidence (repeats counted in
// Signal::occurrences), at most kMaxReportSignals signals and kMaxReportUrls
// urls (the strongest kept — signals by severity, then the weight the finding
// added to the score; urls malicious first — in the order they had), and at
// most kMaxReportJsonBytes of compact JSON (long evidence, summary and
// extracted_text are shortened, then the weakest signals and urls dropped
// until it fits). `truncated` is true when anything was left out or cut.
// risk_score, verdict and confidence are computed on all findings first:
// the bound never moves them.
inline constexpr std::size_t kMaxReportSignals = 64;
inline constexpr std::size_t kMaxReportUrls = 100;
inline constexpr std::size_t kMaxReportJsonBytes = 65536;

struct Report {
  std::string id;  // "rpt_" + ULID (26 Crockford base32 characters)
  Kind kind = Kind::kText;
  std::string locale;  // the catalog locale actually used, e.g. "de"
  Verdict verdict = Verdict::kSafe;
  int risk_score = 0;           // 0-100
  int confidence = 0;           // 0-100: how sure the analyzer is of `verdict`
  std::string risk_text;        // localized label of the verdict ("Be careful")
  std::string summary_plain;    // localized plain-language summary
  std::vector<Action> actions;  // 1-4, most important first
  std::vector<Signal> signals;
  std::vector<UrlInfo> urls;
  std::string model_used = "heuristic-fallback";
  std::int64_t input_tokens = 0;  // heuristic: maximal runs of letters/digits
  std::int64_t output_tokens = 0;
  std::string created_at;  // UTC, ISO 8601 with "Z"
  // Images and documents only. In a truncated Report a very long text may
  // be cut short: a signal's span may then lie past its end.
  std::optional<std::string> extracted_text;
  // True when the bound above left something out or shortened it (JSON:
  // present only when true).
  bool truncated = false;
};

}  // namespace scamcheck

#endif  // SCAMCHECK_REPORT_H_
