// MailContext (data/email.json): how text-pipeline signs read in a mail.
#include "email/mail_context.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

bool known(std::string_view key) {
  return key == "marketing_spam" || key == "random_domain" || key == "payment_request" ||
         key == "link_in_message";
}

Result<std::unique_ptr<MailContext>> load_text(const std::string& json) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "scamcheck_mail_context_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "email.json") << json;
  return MailContext::load(DataSource(dir.string()), known);
}

Finding finding(std::string key, std::string location = "body") {
  Finding f;
  f.key = std::move(key);
  f.start = 0;
  f.end = 1;
  f.location = std::move(location);
  return f;
}

}  // namespace

TEST_CASE("the shipped email.json loads") {
  auto loaded =
      MailContext::load(DataSource(SCAMCHECK_DATA_DIR), [](std::string_view) { return true; });
  REQUIRE_MESSAGE(loaded.ok(), loaded.status().to_string());
  CHECK((*loaded)->sender_site_strength() <= 1.0);
}

TEST_CASE("strength, context and verified-sender claims") {
  auto loaded = load_text(R"({"version": 1,
    "strength": {"marketing_spam": 0.5, "link_in_message": 0},
    "context_only": ["random_domain"], "sender_site_strength": 0.25,
    "verified_sender_claims": ["payment_request"]})");
  REQUIRE_MESSAGE(loaded.ok(), loaded.status().to_string());
  const MailContext& mail = **loaded;
  CHECK(mail.sender_site_strength() == doctest::Approx(0.25));

  Findings f = {finding("marketing_spam"),
                finding("link_in_message"),
                finding("random_domain"),
                finding("payment_request"),
                finding("payment_request", "header:Subject"),
                finding("payment_request", "header:X-Campaign")};
  mail.apply(f, /*verified_sender=*/false);
  REQUIRE(f.size() == 5);  // link_in_message dropped (strength 0)
  CHECK(f[0].strength == doctest::Approx(0.5));
  CHECK(f[1].key == "random_domain");
  CHECK(f[1].requires_context);
  CHECK_FALSE(f[2].requires_context);

  mail.apply(f, /*verified_sender=*/true);
  // What the sender wrote (body, subject) goes; another header's finding stays.
  REQUIRE(f.size() == 3);
  CHECK(f[2].key == "payment_request");
  CHECK(f[2].location == "header:X-Campaign");
}

TEST_CASE("a newsletter by its many links and a reply by its quoted lines") {
  auto loaded = load_text(R"({"version": 1, "strength": {},
    "context_only": [], "sender_site_strength": 1, "verified_sender_claims": [],
    "link_spread": {"min_sites": 8, "min_links": 20, "link_strength": 0,
                    "text_strength": 0.5, "link_keys": ["random_domain"]},
    "reply_quote": {"min_lines": 2, "quoted_strength": 0, "text_strength": 0.4}})");
  REQUIRE_MESSAGE(loaded.ok(), loaded.status().to_string());
  const MailContext& mail = **loaded;
  CHECK(mail.quoted_strength() == doctest::Approx(0.0));

  Findings f = {finding("marketing_spam"), finding("random_domain"),
                finding("marketing_spam", "header:Subject")};
  mail.apply(f, false, /*linked_sites=*/1, /*quoted_lines=*/0, /*links=*/19);
  REQUIRE(f.size() == 3);  // 19 links on one site: no newsletter
  CHECK(f[0].strength == doctest::Approx(1.0));

  mail.apply(f, false, /*linked_sites=*/1, /*quoted_lines=*/0, /*links=*/20);
  REQUIRE(f.size() == 2);  // the link's look (link_strength 0) goes
  CHECK(f[0].strength == doctest::Approx(0.5));
  CHECK(f[1].strength == doctest::Approx(1.0));  // the subject stays

  Findings r = {finding("marketing_spam"), finding("payment_request", "header:Subject")};
  mail.apply(r, false, 0, /*quoted_lines=*/1);
  CHECK(r[0].strength == doctest::Approx(1.0));  // one quoted line is no reply
  mail.apply(r, false, 0, /*quoted_lines=*/2);
  CHECK(r[0].strength == doctest::Approx(0.4));
  CHECK(r[1].strength == doctest::Approx(1.0));

  auto bad = load_text(R"({"version": 1, "strength": {},
    "context_only": [], "sender_site_strength": 1, "verified_sender_claims": [],
    "reply_quote": {"min_lines": 2, "quoted_strength": 2, "text_strength": 0.4}})");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("reply_quote") != std::string::npos);
}

TEST_CASE("a mail saying the reader subscribed weakens its advertising words only") {
  auto loaded = load_text(R"({"version": 1, "strength": {}, "context_only": [],
    "sender_site_strength": 1, "verified_sender_claims": [],
    "subscription_notice": {"patterns": ["\\bbecause\\W+you\\W+subscribed\\b"],
                            "strength": 0.5, "keys": ["marketing_spam"]}})");
  REQUIRE_MESSAGE(loaded.ok(), loaded.status().to_string());
  const MailContext& mail = **loaded;
  Findings f = {finding("marketing_spam"), finding("marketing_spam", "header:Subject"),
                finding("marketing_spam", "header:List-Unsubscribe"), finding("payment_request")};
  // What an HTML part shows, tags gone: "Because You <b>subscribed</b>".
  CHECK(mail.apply_subscription_notice(
      {"Latest offers", "You get this mail Because You subscribed."}, f));
  CHECK(f[0].strength == doctest::Approx(0.5));
  CHECK(f[1].strength == doctest::Approx(0.5));
  CHECK(f[2].strength == doctest::Approx(1.0));  // a header sign, not the sender's words
  CHECK(f[3].strength == doctest::Approx(1.0));  // not advertising

  Findings g = {finding("marketing_spam")};
  CHECK_FALSE(mail.apply_subscription_notice({"Buy now, 50% off!"}, g));
  CHECK_FALSE(mail.apply_subscription_notice({}, g));
  CHECK(g[0].strength == doctest::Approx(1.0));

  // Only a finding the notice would scale makes the text worth searching.
  CHECK(mail.notice_scales_any(g));
  CHECK(mail.notice_scales_any({finding("marketing_spam", "header:Subject")}));
  CHECK_FALSE(mail.notice_scales_any(
      {finding("marketing_spam", "header:List-Unsubscribe"), finding("payment_request")}));
  CHECK_FALSE(mail.notice_scales_any({}));

  auto bad = load_text(R"({"version": 1, "strength": {}, "context_only": [],
    "sender_site_strength": 1, "verified_sender_claims": [],
    "subscription_notice": {"patterns": ["(unclosed"], "strength": 0.5, "keys": []}})");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("subscription_notice") != std::string::npos);
}

TEST_CASE("a bad email.json is an error naming the problem") {
  auto missing = load_text(R"({"version": 1, "strength": {}})");
  CHECK_FALSE(missing.ok());
  auto unknown = load_text(R"({"version": 1, "strength": {"no_such_key": 1},
    "context_only": [], "sender_site_strength": 1, "verified_sender_claims": []})");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().message().find("no_such_key") != std::string::npos);
  auto range = load_text(R"({"version": 1, "strength": {"marketing_spam": 9},
    "context_only": [], "sender_site_strength": 2, "verified_sender_claims": []})");
  REQUIRE_FALSE(range.ok());
  CHECK(range.status().message().find("sender_site_strength") != std::string::npos);
  CHECK(range.status().message().find("marketing_spam") != std::string::npos);
}
