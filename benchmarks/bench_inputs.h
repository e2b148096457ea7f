// Inputs for the micro-benchmarks: real SMS from the corpus when it is there
// (../shared/corpus/sms_spam_collection/dev.jsonl, or $SCAMCHECK_CORPUS_DIR),
// otherwise a few built-in messages written for this file. Deterministic:
// the same corpus gives the same inputs on every run.
#ifndef SCAMCHECK_BENCHMARKS_BENCH_INPUTS_H_
#define SCAMCHECK_BENCHMARKS_BENCH_INPUTS_H_

#include <cstdlib>
#include <string>
#include <vector>

#include "jsonl_corpus.h"

namespace scamcheck::bench {

inline std::string corpus_dir() {
  if (const char* env = std::getenv("SCAMCHECK_CORPUS_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  return SCAMCHECK_CORPUS_DIR;
}

inline std::string data_dir() {
  if (const char* env = std::getenv("SCAMCHECK_DATA_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  return SCAMCHECK_DATA_DIR;
}

// Used when the corpus is absent. Invented, SMS-sized (~140-170 bytes).
inline std::vector<std::string> builtin_sms() {
  return {
      "Your parcel could not be delivered. Confirm your address and pay the 1.99 EUR fee "
      "within 24h: https://parcel-redelivery.example.top/track?id=88231",
      "Hi Mum, my phone broke and this is my new number. Can you send me 450 pounds for the "
      "rent today? I'll pay you back Friday. Don't call, text me.",
      "Are we still on for dinner at 7? I booked a table at the Italian place on Main Street. "
      "Let me know if you're running late, no rush at all.",
      "Your verification code is 482913. It expires in 10 minutes. If you did not request "
      "this code you can ignore this message. Example Bank",
      "URGENT! Your account has been suspended due to unusual activity. Verify your identity "
      "now at http://secure-login-verify.example.xyz or lose access.",
      "Thanks for your order #40213! It ships tomorrow and should arrive on Thursday. Track "
      "it in the app any time. Questions? Just reply to this text.",
      "Congratulations! You have won a 1000 GBP gift card. Claim your prize now by replying "
      "YES or call 09061234567 (150p/min). T&C apply, 18+ only.",
      "Running 10 min late, train stuck outside the station. Start without me, I'll grab a "
      "coffee on the way and see you in the meeting room upstairs.",
  };
}

// Up to `count` SMS of `min_bytes`..`max_bytes` from the SMS Spam Collection
// dev split, alternating ham and spam in file order; the built-in samples
// when the corpus is absent or has too few.
inline std::vector<std::string> sms_samples(std::size_t count = 8, std::size_t min_bytes = 140,
                                            std::size_t max_bytes = 180) {
  std::vector<Record> records;
  std::string error;
  const std::string path = corpus_dir() + "/sms_spam_collection/dev.jsonl";
  if (!load_jsonl(path, &records, &error)) return builtin_sms();
  std::vector<std::string> ham;
  std::vector<std::string> spam;
  for (const Record& r : records) {
    if (r.text.size() < min_bytes || r.text.size() > max_bytes) continue;
    auto& bucket = r.label == Label::kHam ? ham : spam;
    if (bucket.size() < count / 2) bucket.push_back(r.text);
  }
  if (ham.size() + spam.size() < count) return builtin_sms();
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count / 2; ++i) {
    out.push_back(ham[i]);
    out.push_back(spam[i]);
  }
  return out;
}

// Every SMS of the SMS Spam Collection dev split (about 1,000, any length),
// or the built-in samples.
inline std::vector<std::string> all_sms() {
  std::vector<Record> records;
  std::string error;
  std::vector<std::string> out;
  if (load_jsonl(corpus_dir() + "/sms_spam_collection/dev.jsonl", &records, &error)) {
    for (const Record& r : records) out.push_back(r.text);
  }
  return out.empty() ? builtin_sms() : out;
}

// A text of about `bytes` bytes: SMS texts of any size from the corpus
// (file order, so a realistic mix of ham and spam) joined by newlines, or
// the built-in samples repeated; cut on a UTF-8 character boundary.
inline std::string long_text(std::size_t bytes = 5120) {
  std::vector<std::string> parts;
  std::vector<Record> records;
  std::string error;
  if (load_jsonl(corpus_dir() + "/sms_spam_collection/dev.jsonl", &records, &error)) {
    for (const Record& r : records) parts.push_back(r.text);
  }
  if (parts.empty()) parts = builtin_sms();
  std::string text;
  for (std::size_t i = 0; text.size() < bytes; ++i) {
    if (!text.empty()) text += '\n';
    text += parts[i % parts.size()];
  }
  std::size_t cut = bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  return text;
}

// URLs of kind `url`: phishing URLs from the URL corpus plus legitimate ones
// written here.
inline std::vector<std::string> url_samples(std::size_t count = 8) {
  std::vector<std::string> out = {
      "https://www.wikipedia.org/",
      "https://github.com/google/re2/blob/main/re2/set.h",
      "https://www.amazon.de/gp/css/order-history?ref_=nav_orders_first",
      "https://login.microsoftonline.com/common/oauth2/authorize",
  };
  std::vector<Record> records;
  std::string error;
  if (load_jsonl(corpus_dir() + "/urls_phishing_database/dev.jsonl", &records, &error)) {
    for (std::size_t i = 0; i < records.size() && out.size() < count; ++i) {
      out.push_back(records[i].text);
    }
  } else {
    out.push_back("http://paypa1-account-verify.example.top/signin/update.php?session=8f2a");
    out.push_back("https://secure-dhl-redelivery.example.xyz/pay");
  }
  return out;
}

}  // namespace scamcheck::bench

#endif  // SCAMCHECK_BENCHMARKS_BENCH_INPUTS_H_
