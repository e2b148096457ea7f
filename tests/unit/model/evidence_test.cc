// The model's share of the evidence: suspicious_wording and
// suspicious_url_pattern signals quote exact spans of the input (CONTRACT
// §1), for text, url and email alike, and never appear on a safe verdict.
#include "model/evidence.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "decode/mime.h"
#include "scamcheck/scamcheck.h"

using scamcheck::Kind;

namespace {

const scamcheck::Analyzer& analyzer() {
  static auto created = scamcheck::Analyzer::create();
  REQUIRE_MESSAGE(created.ok(), created.status().to_string());
  return **created;
}

bool from_model(const scamcheck::Signal& s) {
  return s.key == "suspicious_wording" || s.key == "suspicious_url_pattern";
}

// Checks every model signal of `content`; returns how many there were.
int check(std::string_view content, Kind kind) {
  auto r = analyzer().analyze(content, kind, "en");
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  scamcheck::internal::ParsedEmail email;
  if (kind == Kind::kEmail) {
    auto parsed = scamcheck::internal::parse_email(content);
    REQUIRE(parsed.ok());
    email = std::move(parsed).value();
  }
  int n = 0;
  for (const auto& s : r->signals) {
    if (!from_model(s)) continue;
    ++n;
    INFO(s.key << " " << s.location << " [" << s.span.start << "," << s.span.end << ") '"
               << s.evidence << "'");
    CHECK(r->verdict != scamcheck::Verdict::kSafe);
    const std::string_view text = kind == Kind::kEmail ? email.text_of(s.location) : content;
    if (kind != Kind::kEmail) CHECK(s.location == "content");
    REQUIRE(s.span.start < s.span.end);
    REQUIRE(s.span.end <= text.size());
    CHECK(text.substr(s.span.start, s.span.end - s.span.start) == s.evidence);
  }
  return n;
}

}  // namespace

TEST_CASE("model signals quote their words exactly") {
  CHECK(check("FREE entry! You have WON a £1000 cash prize. Text CLAIM to 87121 now, "
              "T&Cs apply, 18+ only",
              Kind::kText) > 0);
  check(
      "Ihr Konto wurde gesperrt. Bestätigen Sie Ihre Daten unter "
      "https://sparkasse-sicherheit.example.top/login sofort",
      Kind::kText);
  check("Ünïcödé ＦＵＬＬＷＩＤＴＨ winner prize claim now call 09061701461", Kind::kText);
}

TEST_CASE("model signals on links quote parts of the link") {
  check("http://paypal.com.account-verify.example.top/webscr/cmd=login", Kind::kUrl);
  check("appleid-locked-support.example.xyz/signin", Kind::kUrl);
}

TEST_CASE("nothing from the model on a safe verdict") {
  auto r = analyzer().analyze("See you at the station at 6, love Mum", Kind::kText, "en");
  REQUIRE(r.ok());
  CHECK(r->verdict == scamcheck::Verdict::kSafe);
  for (const auto& s : r->signals) CHECK_FALSE(from_model(s));
}

TEST_CASE("model signals in e-mails quote the decoded header or part") {
  const std::filesystem::path dir = SCAMCHECK_FIXTURES_DIR "/email/scam";
  REQUIRE(std::filesystem::is_directory(dir));
  int signals = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".eml") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    INFO(entry.path().filename().string());
    signals += check(buf.str(), Kind::kEmail);
  }
  CHECK(signals > 0);
}

TEST_CASE("model signals never quote binary junk") {
  // A flagged message with an 8-bit run of garbage bytes (read as Latin-1).
  std::string junk;
  for (int i = 0; i < 12; ++i) junk += "\xC3\xBF\xC3\xA3\xC2\xBE\xC3\xB0\xC3\x86\xC3\x9F\xC2\xA7 ";
  const std::string text =
      "FREE entry! You have WON a £1000 cash prize. Text CLAIM to 87121 now " + junk;
  CHECK(check(text, Kind::kText) > 0);
  auto r = analyzer().analyze(text, Kind::kText, "en");
  REQUIRE(r.ok());
  for (const auto& s : r->signals) {
    if (!from_model(s)) continue;
    INFO(s.evidence);
    CHECK(s.evidence.find("\xC2\xBE") == std::string::npos);
    CHECK(s.evidence.find("\xC3\xBF") == std::string::npos);
  }
}
