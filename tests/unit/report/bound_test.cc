// CONTRACT §10: every Report is bounded — one signal per key and evidence
// (repeats in `occurrences`), at most 64 signals and 100 urls, `truncated`,
// at most 64 KiB of JSON — whatever the input and whoever produced it.
#include "explain/bound.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/report_json.h"
#include "scamcheck/scamcheck.h"
#include "util/utf8.h"

using scamcheck::AiProvider;
using scamcheck::AiReply;
using scamcheck::AiRequest;
using scamcheck::AiSignal;
using scamcheck::Analyzer;
using scamcheck::Kind;
using scamcheck::kMaxReportJsonBytes;
using scamcheck::kMaxReportSignals;
using scamcheck::kMaxReportUrls;
using scamcheck::Report;
using scamcheck::Reputation;
using scamcheck::Severity;
using scamcheck::Signal;
using scamcheck::UrlInfo;
using scamcheck::Verdict;
using scamcheck::adapters::report_to_json;
using scamcheck::internal::bound_report;
using scamcheck::internal::json_string_size_bound;
using scamcheck::internal::report_json_size_bound;

namespace {

const Analyzer& analyzer() {
  static auto created = Analyzer::create();
  REQUIRE_MESSAGE(created.ok(), created.status().to_string());
  return **created;
}

// Every evidence is the text its span covers, or (truncated Report only) a
// prefix of it.
void check_evidence(const Report& r, std::string_view content) {
  for (const Signal& s : r.signals) {
    REQUIRE(s.span.end <= content.size());
    const std::string_view covered = content.substr(s.span.start, s.span.end - s.span.start);
    if (r.truncated) {
      CHECK(covered.starts_with(s.evidence));
    } else {
      CHECK(covered == s.evidence);
    }
  }
}

void check_bounded(const Report& r) {
  CHECK(r.signals.size() <= kMaxReportSignals);
  CHECK(r.urls.size() <= kMaxReportUrls);
  const std::string json = report_to_json(r);
  CHECK(json.size() <= kMaxReportJsonBytes);
  CHECK(json.size() <= report_json_size_bound(r));
  for (std::size_t i = 0; i < r.signals.size(); ++i) {
    for (std::size_t j = i + 1; j < r.signals.size(); ++j) {
      CHECK_FALSE(
          (r.signals[i].key == r.signals[j].key && r.signals[i].evidence == r.signals[j].evidence));
    }
  }
}

std::string many_urls(std::size_t n) {
  std::string text;
  char host[24];  // "h" and up to 16 hex digits
  for (std::size_t i = 0; i < n; ++i) {
    std::snprintf(host, sizeof host, "h%zx", i);
    text += "http://" + std::string(host) + ".top\n";
  }
  return text;
}

}  // namespace

TEST_CASE("a text with 4,000 URLs: at most 64 signals and 100 urls, truncated") {
  const std::string text = many_urls(4000);
  REQUIRE(text.size() <= scamcheck::kMaxContentBytes);
  auto r = analyzer().analyze(text, Kind::kText, "en");
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  CHECK(r->truncated);
  CHECK(r->urls.size() == kMaxReportUrls);
  CHECK(r->signals.size() <= kMaxReportSignals);
  CHECK_FALSE(r->signals.empty());
  check_bounded(*r);
  check_evidence(*r, text);
  // The kept urls keep the input's order.
  for (std::size_t i = 1; i < r->urls.size(); ++i) {
    CHECK(std::stoul(r->urls[i - 1].host.substr(1), nullptr, 16) <
          std::stoul(r->urls[i].host.substr(1), nullptr, 16));
  }
  // The score is that of all 4,000 links, not of the 100 kept.
  auto few = analyzer().analyze(many_urls(100), Kind::kText, "en");
  REQUIRE(few.ok());
  CHECK(r->risk_score >= few->risk_score);
  const std::string json = report_to_json(*r);
  CHECK(json.find("\"truncated\":true") != std::string::npos);
}

TEST_CASE("repeated signals in an email fold into occurrences") {
  std::string body;
  for (int i = 0; i < 85; ++i) {
    body +=
        "Verify your account now: http://secure-login.example.top/verify or it will be "
        "suspended within 24 hours.\r\n";
  }
  const std::string mail =
      "From: Bank <alerts@bank-secure.top>\r\nTo: you@example.com\r\nSubject: Urgent\r\n"
      "Content-Type: text/plain; charset=utf-8\r\n\r\n" +
      body;
  auto r = analyzer().analyze(mail, Kind::kEmail, "en");
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  check_bounded(*r);
  int most = 0;
  for (const Signal& s : r->signals) most = std::max(most, s.occurrences);
  CHECK(most >= 85);
  CHECK(report_to_json(*r).size() < 16384);
  CHECK(report_to_json(*r).find("\"occurrences\":") != std::string::npos);
  CHECK_FALSE(r->truncated);  // nothing was left out: repeats are counted
}

TEST_CASE("an ordinary report is unchanged: no occurrences, not truncated") {
  const std::string text = "Your parcel is held. Pay the fee at http://dhl-parcel.top/pay now";
  auto r = analyzer().analyze(text, Kind::kText, "en");
  REQUIRE(r.ok());
  CHECK_FALSE(r->truncated);
  for (const Signal& s : r->signals) CHECK(s.occurrences == 1);
  check_evidence(*r, text);
  const std::string json = report_to_json(*r);
  CHECK(json.find("occurrences") == std::string::npos);
  CHECK(json.find("truncated") == std::string::npos);
}

TEST_CASE("many distinct long evidences stay within 64 KiB") {
  // Long distinct links, each a signal whose evidence is the whole link.
  std::string text;
  for (int i = 0; text.size() < 60000; ++i) {
    text += "https://login-verify" + std::to_string(i) + ".top/" + std::string(900, 'a' + i % 26) +
            "?account=" + std::to_string(i) + "\n";
  }
  auto r = analyzer().analyze(text, Kind::kText, "en");
  REQUIRE(r.ok());
  check_bounded(*r);
  check_evidence(*r, text);
}

TEST_CASE("bound_report: adversarial reports fit, strongest first, in order") {
  Report r;
  r.id = "rpt_01ARZ3NDEKTSV4RRFFQ69G5FAV";
  r.locale = "en";
  r.summary_plain = std::string(100000, '"');
  r.actions = {{"!", std::string(5000, '\x01')}};
  r.created_at = "2026-01-01T00:00:00Z";
  r.extracted_text = std::string(1 << 20, '\n');
  for (int i = 0; i < 500; ++i) {
    Signal s;
    s.key = i == 499 ? "credential_request" : "link_in_message";
    s.severity = i == 499 ? Severity::kHigh : Severity::kLow;
    s.evidence = std::to_string(i) + std::string(3000, i % 2 ? '\x1f' : '\xff');
    s.location = "ocr";
    s.span = {static_cast<std::size_t>(i) * 4000, static_cast<std::size_t>(i) * 4000 + 3003};
    s.explanation = "A link.";
    r.signals.push_back(s);
  }
  for (int i = 0; i < 300; ++i) {
    UrlInfo u;
    u.url = "http://h" + std::to_string(i) + ".top/" + std::string(4000, 'x');
    u.host = "h" + std::to_string(i) + ".top";
    u.reputation = i == 299 ? Reputation::kMalicious : Reputation::kUnknown;
    r.urls.push_back(u);
  }
  r.risk_score = 99;
  r.verdict = Verdict::kDanger;
  bound_report(r);
  CHECK(r.truncated);
  CHECK(r.risk_score == 99);
  check_bounded(r);
  REQUIRE_FALSE(r.signals.empty());
  REQUIRE_FALSE(r.urls.empty());
  CHECK(r.signals.back().key == "credential_request");  // strongest kept, order kept
  CHECK(r.urls.back().reputation == Reputation::kMalicious);
  for (std::size_t i = 1; i < r.signals.size(); ++i) {
    CHECK(r.signals[i - 1].span.start < r.signals[i].span.start);
  }
  // Idempotent.
  const std::string once = report_to_json(r);
  bound_report(r);
  CHECK(report_to_json(r) == once);
}

TEST_CASE("bound_report: the stronger weight wins among equal severities") {
  Report r;
  for (int i = 0; i < 100; ++i) {
    Signal s;
    s.key = "k" + std::to_string(i);
    s.evidence = "e";
    s.span = {static_cast<std::size_t>(i), static_cast<std::size_t>(i) + 1};
    r.signals.push_back(s);
  }
  bound_report(r, [](const Signal& s) { return s.key == "k99" ? 10.0 : 1.0; });
  REQUIRE(r.signals.size() == kMaxReportSignals);
  CHECK(r.signals.front().key == "k0");
  CHECK(r.signals[62].key == "k62");
  CHECK(r.signals.back().key == "k99");
}

TEST_CASE("json_string_size_bound is an upper bound of the written JSON") {
  const std::vector<std::string> samples = {"",
                                            "plain",
                                            "\"quoted\\\"",
                                            std::string("\0\x01\x1f\x7f", 4),
                                            "\t\n\r\b\f",
                                            "h\xC3\xA9llo",
                                            "\xC3\x28 bad",
                                            "\xF0\x9F\x98\x80 emoji",
                                            "\xED\xA0\x80",
                                            std::string(300, '\xff')};
  for (const std::string& s : samples) {
    Report r;
    r.summary_plain = s;
    Report empty;
    const std::size_t written = report_to_json(r).size() - report_to_json(empty).size() + 2;
    CHECK(written <= json_string_size_bound(s));
  }
}

TEST_CASE("json_string_size_bound counts every byte as the per-byte rule does") {
  // 2 for the quotes; 2 for a short escape, 6 for \uXXXX; 3 for each
  // byte >= 0x80 of invalid UTF-8, else 1.
  const auto reference = [](std::string_view s) {
    const bool valid = scamcheck::internal::is_valid_utf8(s);
    std::size_t n = 2;
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x20) {
        n += c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t' ? 2 : 6;
      } else if (c == '"' || c == '\\') {
        n += 2;
      } else if (c >= 0x80 && !valid) {
        n += 3;
      } else {
        n += 1;
      }
    }
    return n;
  };
  const std::string plain = "Your parcel could not be delivered, confirm your address today. ";
  std::vector<std::string> samples;
  for (std::string_view odd :
       std::initializer_list<std::string_view>{"\"", "\\", "\n", std::string_view("\0", 1), "\x1f",
                                               "\x7f", "\xC3\xA9", "\xC3", "\xff"}) {
    for (std::size_t at : {0, 1, 7, 8, 9, 15, 16, 63, 64}) {
      std::string s = plain;
      s.insert(at, odd);
      samples.push_back(s);
      samples.push_back(s.substr(0, at + odd.size()));
    }
  }
  std::string big;
  while (big.size() < 100000) big += plain;
  samples.push_back(big);
  big[50001] = '"';
  samples.push_back(big);
  for (const std::string& s : samples) CHECK(json_string_size_bound(s) == reference(s));
}

namespace {
// Proposes many signals, each with a quote found in the text.
class ChattyProvider : public AiProvider {
 public:
  scamcheck::Result<AiReply> analyze(const AiRequest& request) const override {
    AiReply reply;
    reply.verdict = Verdict::kDanger;
    reply.risk_score = 90;
    reply.summary = std::string(200000, 's');
    reply.actions = {{"\xE2\x9A\xA0", "Do not answer."}};
    reply.model = "chatty";
    const std::string_view text = request.content;
    for (std::size_t at = 0; at + 20 <= text.size() && reply.signals.size() < 3000; at += 20) {
      reply.signals.push_back(
          AiSignal{"urgency", Severity::kHigh, std::string(text.substr(at, 20))});
    }
    return reply;
  }
};
}  // namespace

TEST_CASE("the AI provider's merged report is bounded too") {
  scamcheck::Options options;
  options.ai_provider = std::make_shared<ChattyProvider>();
  auto created = Analyzer::create(options);
  REQUIRE(created.ok());
  const std::string text = many_urls(3000);
  auto r = (*created)->analyze(text, Kind::kText, "en");
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  CHECK(r->model_used == "chatty");
  CHECK(r->truncated);
  check_bounded(*r);
  check_evidence(*r, text);
}

TEST_CASE(
    "bound_report: evidence cut to the same prefix folds, so a second bound changes nothing") {
  Report r;
  r.extracted_text = std::string(200000, 'x');
  for (int i = 0; i < 3; ++i) {
    Signal s;
    s.key = "suspicious_url_pattern";
    s.evidence = std::string(3000, 'a') + std::to_string(i);
    s.location = "document";
    s.span = {static_cast<std::size_t>(i) * 3001, static_cast<std::size_t>(i + 1) * 3001};
    r.signals.push_back(s);
  }
  bound_report(r);
  CHECK(r.truncated);
  REQUIRE(r.signals.size() == 1);
  CHECK(r.signals[0].occurrences == 3);
  CHECK(r.signals[0].span.start == 0);
  CHECK(r.signals[0].span.end == 3001);  // the span still covers the whole evidence
  CHECK(std::string(3000, 'a').starts_with(r.signals[0].evidence));
  check_bounded(r);
  const std::string once = report_to_json(r);
  bound_report(r);
  CHECK(report_to_json(r) == once);
}
