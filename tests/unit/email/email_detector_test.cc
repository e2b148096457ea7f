// EmailDetector: which texts of a mail go through the text stage, under
// which locations, and what the mail's context does with their findings.
#include "email/email_detector.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "email/email_checks.h"
#include "loaded_detector.h"
#include "normalize/normalize.h"

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

// A text stage that finds the word "ALARM" and records what it was given.
class FakeTextStage final : public TextStage {
 public:
  mutable std::vector<std::string> locations;

  Status detect_text(std::string_view text, std::string_view location, std::string_view,
                     Findings& findings, Report&) const override {
    locations.emplace_back(location);
    for (std::size_t at = text.find("ALARM"); at != std::string_view::npos;
         at = text.find("ALARM", at + 1)) {
      findings.push_back(Finding::at("urgency", at, at + 5, std::string(location)));
    }
    return {};
  }
  Status detect_normalized(const NormalizedText& normalized, std::string_view location,
                           std::string_view sender_site, Findings& findings,
                           Report& report) const override {
    return detect_text(normalized.original(), location, sender_site, findings, report);
  }
  void detect_link(std::string_view, const LinkMatch&, std::string_view, Findings&,
                   Report&) const override {}
};

Findings detect(const std::string& raw, const FakeTextStage& stage) {
  auto email = parse_email(raw);
  REQUIRE(email.ok());
  Findings findings;
  Report report;
  REQUIRE(testing::loaded_detector().detect(*email, stage, findings, report).ok());
  return findings;
}

// The strengths of the body's findings, in order.
std::vector<double> body_strengths(const Findings& findings) {
  std::vector<double> out;
  for (const Finding& f : findings) {
    if (f.key == "urgency" && f.location == "body") out.push_back(f.strength);
  }
  return out;
}

}  // namespace

TEST_CASE("the subject and the text part go through the text stage") {
  FakeTextStage stage;
  const Findings findings =
      detect("From: a@example.org\r\nSubject: ALARM now\r\n\r\nHello, ALARM.\r\n", stage);
  REQUIRE(stage.locations.size() == 2);
  CHECK(stage.locations[0] == "header:Subject");
  CHECK(stage.locations[1] == "body");
  CHECK(std::count_if(findings.begin(), findings.end(),
                      [](const Finding& f) { return f.key == "urgency"; }) == 2);
}

TEST_CASE("lines quoted in a reply weigh less, only in a reply") {
  const std::string body = "ALARM here\r\n> ALARM quoted\r\n";
  FakeTextStage reply_stage;
  const Findings reply =
      detect("From: a@example.org\r\nSubject: Re: hi\r\n\r\n" + body, reply_stage);
  FakeTextStage plain_stage;
  const Findings plain = detect("From: a@example.org\r\nSubject: hi\r\n\r\n" + body, plain_stage);
  const std::vector<double> in_reply = body_strengths(reply);
  const std::vector<double> in_plain = body_strengths(plain);
  REQUIRE(in_plain.size() == 2);
  CHECK(in_plain[1] == in_plain[0]);
  // The quoted line's finding is scaled by reply_quote.quoted_strength (0
  // in the shipped email.json: dropped); the line above it keeps its own.
  REQUIRE_FALSE(in_reply.empty());
  CHECK(in_reply[0] == in_plain[0]);
  CHECK((in_reply.size() == 1 || in_reply[1] < in_reply[0]));
}

TEST_CASE("each text and HTML part keeps the rules' normalization of what it shows") {
  // The model's prose features read it instead of normalizing again.
  auto email = parse_email(
      "From: a@example.org\r\nSubject: hi\r\nMIME-Version: 1.0\r\n"
      "Content-Type: multipart/alternative; boundary=b\r\n\r\n"
      "--b\r\nContent-Type: text/plain\r\n\r\nYou_have ALARM\r\n"
      "--b\r\nContent-Type: text/html\r\n\r\n<p>Sh&ouml;wn <b>ALARM</b></p>\r\n--b--\r\n");
  REQUIRE(email.ok());
  FakeTextStage stage;
  Findings findings;
  Report report;
  REQUIRE(testing::loaded_detector().detect(*email, stage, findings, report).ok());
  REQUIRE(email->parts.size() == 2);
  const EmailPart& text = email->parts[0];
  const EmailPart& html = email->parts[1];
  REQUIRE(text.type == EmailPart::Type::kText);
  REQUIRE(html.type == EmailPart::Type::kHtml);
  REQUIRE(text.normalized != nullptr);
  CHECK(text.normalized->original().data() == text.text.data());
  CHECK(text.normalized->original().size() == text.text.size());
  CHECK(text.normalized->text() ==
        NormalizedText(text.text, /*underscores_as_spaces=*/true).text());
  CHECK(text.normalized->spaced_underscores());  // "You_have": the model normalizes its own
  REQUIRE(html.visible != nullptr);
  REQUIRE(html.normalized != nullptr);
  CHECK(html.normalized->original().data() == html.visible->text.data());
  CHECK(html.normalized->original().size() == html.visible->text.size());
  CHECK(html.normalized->text() ==
        NormalizedText(html.visible->text, /*underscores_as_spaces=*/true).text());
  CHECK_FALSE(html.normalized->spaced_underscores());
}

TEST_CASE("input tokens of a mail are the word runs of its decoded texts") {
  auto email = parse_email("Subject: one two\r\n\r\nthree four five\r\n");
  REQUIRE(email.ok());
  CHECK(count_email_tokens(*email) == 5);
}
