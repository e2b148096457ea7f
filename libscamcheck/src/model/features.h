// Features of the learned model (scoring stage): hashed word uni- and
// bigrams of the text a person reads, host and path tokens and character
// n-grams of links, and the rule findings. The library and the training
// tool (tools/train) both call these functions, so training and inference
// cannot drift apart.
//
// What is never a feature, because it is a trace of how a corpus was
// collected rather than a sign of a scam (../shared/corpus/README.md):
// recipient headers (To, Cc, Bcc, Delivered-To, X-Original-To, Envelope-To)
// and the mbox envelope line (a recipient's address is only compared with
// the sender's: a mail forged as sent by its recipient has no sender
// features); any e-mail address (one token "<email>",
// whoever it names, also inside a link's path); the URL scheme and a
// leading "www." (a link featurizes the same with and without them); trace
// headers (Received) and all but a short list of sender-side headers; digits
// (every digit reads as 0, so dates, years and amounts match by shape only).
#ifndef SCAMCHECK_MODEL_FEATURES_H_
#define SCAMCHECK_MODEL_FEATURES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "decode/mime.h"
#include "detect/finding.h"
#include "scamcheck/report.h"

namespace scamcheck::internal {

class HtmlChecker;
class NormalizedText;

namespace model {

// What a hashed feature describes; decides which signal key quotes it.
enum class Group : std::uint8_t {
  kOther,  // rule findings, kind, sizes: never quoted
  kWord,   // word n-grams of prose: "suspicious_wording"
  kUrl,    // parts of a link: "suspicious_url_pattern"
};

// One feature of one input. `field` indexes FeatureSet::locations (-1: no
// place in the input); [start, end) is the byte span, in the text of that
// location, that the feature was read from.
struct Hit {
  std::uint32_t hash = 0;  // 32-bit FNV-1a of namespace and token
  float value = 1;
  Group group = Group::kOther;
  std::int32_t field = -1;
  std::uint32_t start = 0;
  std::uint32_t end = 0;
};

// The features of one input. Build with the add_* functions, then call
// finish() once.
struct FeatureSet {
  std::vector<std::string> locations;  // report locations ("content", "body", ...)
  std::vector<Hit> hits;
  std::size_t word_tokens = 0;  // prose tokens read so far (capped per input)
  // When set (e-mail), the registrable domain of every link read is
  // appended here, for the features that compare links with the sender.
  std::vector<std::string>* link_domains = nullptr;
  // When set (e-mail), every word feature is read a second time as a
  // feature of mail only, so that mail can weigh a word otherwise than SMS.
  bool mail_words = false;

  // Adds a location and returns its field index.
  std::int32_t add_location(std::string_view location);
  // Empties the set for the next input, keeping the buffers.
  void clear();
  // Keeps one hit per distinct feature (the first, with its span) and
  // scales the word features and the link features each to unit length
  // (binary values divided by the square root of their count), so long and
  // short inputs weigh alike.
  void finish();
};

// Bucket of a hash in a table of 2^bits weights.
inline std::uint32_t bucket(std::uint32_t hash, std::uint32_t bits) {
  return (hash ^ (hash >> bits)) & ((1u << bits) - 1);
}

// Maps a span of a derived text (e.g. the visible text of an HTML part) back
// to the text the location names: [start[s], end[e - 1]). Null: identity.
struct SpanMap {
  const std::uint32_t* start = nullptr;
  const std::uint32_t* end = nullptr;
};

// Word features of prose (an SMS, a Subject, a body part). `text` is valid
// UTF-8; links in it become link features and e-mail addresses one token.
// Outside a mail (FeatureSet::mail_words unset) also the shape of the text
// as a whole: its length and its share of capital letters, both read
// without "http://" and "https://". `normalized`, when given, is
// NormalizedText(text) already made (e.g. the rules' one, when it spaced no
// underscore): the same features without normalizing the text again.
void add_prose(std::string_view text, std::int32_t field, FeatureSet& out, SpanMap map = {},
               const NormalizedText* normalized = nullptr);

// Link features of one URL, scheme optional: `text` is the whole input of
// kind url (valid UTF-8).
void add_url_input(std::string_view text, std::int32_t field, FeatureSet& out);

// The features of an e-mail: Subject and From as prose, a few sender-side
// headers, every text part, the visible text and links of every HTML part
// (read with `html`). Recipient headers are never read.
void add_email(const ParsedEmail& email, const HtmlChecker& html, FeatureSet& out);

// The rule stage's verdict as features: each finding key once, and the
// combined rule weight (Score::total) as a number and as a bucket.
void add_rules(const Findings& findings, double rule_total, FeatureSet& out);

// One bias feature per kind.
void add_kind(Kind kind, FeatureSet& out);

}  // namespace model
}  // namespace scamcheck::internal

#endif  // SCAMCHECK_MODEL_FEATURES_H_
