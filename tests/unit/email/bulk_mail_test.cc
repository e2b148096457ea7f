// mark_bulk_advert: the shape of a bulk advert next to its wording.
#include "email/bulk_mail.h"

#include <doctest/doctest.h>

#include <string>
#include <utility>

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

ParsedEmail parse(const std::string& raw) {
  auto parsed = parse_email(raw);
  REQUIRE(parsed.ok());
  return std::move(parsed).value();
}

const std::string kAdvert =
    "From: Offers <news@deals-mailer.example>\r\n"
    "Subject: Your quote\r\n"
    "List-Unsubscribe: <https://track.example/u/123>\r\n"
    "Content-Type: text/html; charset=utf-8\r\n\r\n"
    "<html><body><img src=\"https://img.example/a.png\">"
    "<a href=\"https://track.example/c/1\">Click</a> unsubscribe</body></html>\r\n";

// A small advert: little HTML text, one foreign site, a sender domain.
MailShape advert_shape() {
  MailShape shape;
  shape.html_parts = 1;
  shape.html_visible_chars = 40;
  shape.linked_sites = 1;
  shape.sender_site = "deals-mailer.example";
  return shape;
}

Finding wording(double strength = 0.7) {
  Finding f;
  f.key = "marketing_spam";
  f.location = "body:html";
  f.start = 10;
  f.end = 21;
  f.strength = strength;
  return f;
}

}  // namespace

TEST_CASE("an advert's wording is lifted by its shape") {
  const ParsedEmail email = parse(kAdvert);
  Findings findings = {wording(0.7), wording(0.5)};
  findings[1].start = 30;
  findings[1].end = 35;
  CHECK(mark_bulk_advert(email, advert_shape(), findings));
  REQUIRE(findings.size() == 2);  // no new finding: the wording is the evidence
  CHECK(findings[0].weight == kBulkAdWeight);
  CHECK(findings[0].strength == 1.0);
  CHECK(findings[0].start == 10);
  CHECK(findings[0].end == 21);
  CHECK(findings[1].weight == 0);
}

TEST_CASE("without wording, a List-Unsubscribe header is the evidence") {
  const ParsedEmail email = parse(kAdvert);
  Findings findings;
  CHECK(mark_bulk_advert(email, advert_shape(), findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].key == "marketing_spam");
  CHECK(findings[0].location == "header:List-Unsubscribe");
  CHECK(email.text_of(findings[0].location)
            .substr(findings[0].start, findings[0].end - findings[0].start) ==
        "<https://track.example/u/123>");
}

TEST_CASE("a discussion list's List-Unsubscribe is no sign") {
  const ParsedEmail email =
      parse("From: a@lists.example\r\nList-Post: <mailto:l@lists.example>\r\n" +
            kAdvert.substr(kAdvert.find("Subject:")));
  Findings findings;
  CHECK_FALSE(mark_bulk_advert(email, advert_shape(), findings));
  CHECK(findings.empty());
}

TEST_CASE("a sender's own newsletter keeps its shape") {
  const ParsedEmail email = parse(kAdvert);
  SUBCASE("links to the sender's own site") {
    MailShape shape = advert_shape();
    shape.links_sender_site = true;
    Findings findings = {wording()};
    CHECK_FALSE(mark_bulk_advert(email, shape, findings));
    CHECK(findings[0].weight == 0);
  }
  // Shapes of mail that is no short advert: the wording keeps its weight.
  const std::pair<const char*, void (*)(MailShape&)> not_adverts[] = {
      {"much text", [](MailShape& s) { s.html_visible_chars = 4000; }},
      {"a long plain-text alternative", [](MailShape& s) { s.plain_text_chars = 4000; }},
      {"many linked sites: a digest", [](MailShape& s) { s.linked_sites = 9; }},
      {"a verified brand sender", [](MailShape& s) { s.verified_sender = true; }},
      {"no HTML part", [](MailShape& s) { s.html_parts = 0; }},
      {"no sender domain (a freemail mailbox)", [](MailShape& s) { s.sender_site = ""; }},
  };
  for (const auto& [what, change] : not_adverts) {
    INFO(what);
    MailShape shape = advert_shape();
    change(shape);
    Findings findings = {wording()};
    CHECK_FALSE(mark_bulk_advert(email, shape, findings));
  }
}
