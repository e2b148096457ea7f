// Relayed mail: links typed into web forms, link-only mail, Google
// redirects, and the message a mail forwards.
#include "email/relayed_mail.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "email/email_checks.h"

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

ParsedEmail parse(const std::string& raw) {
  auto parsed = parse_email(raw);
  REQUIRE(parsed.ok());
  return std::move(parsed).value();
}

UrlInfo url(std::string u, std::string host, std::string registrable) {
  UrlInfo info;
  info.url = std::move(u);
  info.host = std::move(host);
  info.registrable_domain = std::move(registrable);
  return info;
}

const Finding* find_key(const Findings& findings, std::string_view key) {
  for (const Finding& f : findings) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

const std::string kFormHead =
    "From: Corner Bakery <forms@corner-bakery.example>\r\n"
    "Subject: New message from the contact form\r\n"
    "Content-Type: text/plain; charset=utf-8\r\n\r\n";

}  // namespace

TEST_CASE("find_forwarded: a marker or a header block, and the inner sender's domain") {
  Forwarded gmail = find_forwarded(
      "Look at this.\n\n---------- Forwarded message ---------\n"
      "From: Bank Team <alerts@bank-review.example>\nDate: Mon, 1 Jul 2024\n"
      "Subject: Locked\n\nText\n");
  CHECK(gmail.found);
  CHECK(gmail.sender_domain == "bank-review.example");

  Forwarded outlook = find_forwarded(
      "FYI\r\n\r\nFrom: Shop Support [mailto:help@Shop-Help.example]\r\n"
      "Sent: Tuesday, 2 July 2024 09:12\r\nTo: Me\r\nSubject: Refund\r\n\r\nBody\r\n");
  CHECK(outlook.found);
  CHECK(outlook.sender_domain == "shop-help.example");

  Forwarded none = find_forwarded("From: the office, with love\nSee you soon.\n");
  CHECK_FALSE(none.found);

  // Markers in other languages and cases; a From line with no marker and
  // no header lines after it is not a forwarded message.
  for (const std::string marker :
       {"-------- Ursprüngliche Nachricht --------", "----- MENSAJE ORIGINAL -----",
        "Doorgestuurd bericht", "---- Messaggio inoltrato ----", "Mensagem encaminhada"}) {
    const Forwarded f =
        find_forwarded("Siehe unten.\n\n" + marker + "\nVon: Bank <a@bank-review.example>\n");
    CHECK_MESSAGE(f.found, marker);
    CHECK(f.sender_domain == "bank-review.example");
  }
  CHECK_FALSE(find_forwarded("Hello\nVon: Bank <a@bank-review.example>\n").found);
}

TEST_CASE("form_relay_link: a form's notification whose message links to another site") {
  const ParsedEmail email = parse(kFormHead +
                                  "Name: Payout desk\r\nEmail: someone@example.org\r\n"
                                  "Message: Your 0.5 BTC is ready at https://payout.example/x\r\n");
  Findings findings;
  check_relayed_mail(email, "corner-bakery.example", {}, findings);
  const Finding* f = find_key(findings, "form_relay_link");
  REQUIRE(f != nullptr);
  CHECK(f->severity == Severity::kHigh);
  CHECK(email.parts.front().text.substr(f->start, f->end - f->start) == "https://payout.example/x");
}

TEST_CASE("form_relay_link: a form named in any case and language, with two fields") {
  for (const std::string subject :
       {"NEW SUBMISSION", "Nuovo messaggio dal Modulo di contatto", "お問い合わせがありました",
        "Kontaktformular", "Formulário de contato", "Someone Submitted The Form"}) {
    const ParsedEmail email = parse(
        "From: Corner Bakery <forms@corner-bakery.example>\r\n"
        "Subject: " +
        subject +
        "\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        "Email: someone@example.org\r\n"
        "Message: Your 0.5 BTC is ready at https://payout.example/x\r\n");
    Findings findings;
    check_relayed_mail(email, "corner-bakery.example", {}, findings);
    CHECK_MESSAGE(find_key(findings, "form_relay_link") != nullptr, subject);
  }
  const ParsedEmail plain = parse(
      "From: Corner Bakery <forms@corner-bakery.example>\r\n"
      "Subject: Fresh rolls\r\n\r\nEmail: someone@example.org\r\n"
      "Message: Your 0.5 BTC is ready at https://payout.example/x\r\n");
  Findings findings;
  check_relayed_mail(plain, "corner-bakery.example", {}, findings);
  CHECK(find_key(findings, "form_relay_link") == nullptr);
}

TEST_CASE("form_relay_link: the sender's own site and the form software's lines do not count") {
  const ParsedEmail email =
      parse(kFormHead +
            "Name: Ann Lee\r\nEmail: ann@example.org\r\nWebsite: https://ann-lee.example\r\n"
            "Message: Do you bake gluten-free? I saw https://corner-bakery.example/menu\r\n"
            "Page URL: https://forms-host.example/corner-bakery/contact\r\n");
  Findings findings;
  check_relayed_mail(email, "corner-bakery.example", {}, findings);
  CHECK(find_key(findings, "form_relay_link") == nullptr);
}

TEST_CASE("form_relay_link: a link in the greeting of a site's auto-reply") {
  const ParsedEmail email = parse(
      "From: Tool Hire <info@tool-hire.example>\r\nSubject: Thanks for your message\r\n"
      "Content-Type: text/plain; charset=utf-8\r\n\r\n"
      "Hello You won 900 EUR, claim https://claim-now.example/p ,\r\n\r\n"
      "thank you for contacting us. We will reply soon.\r\n");
  Findings findings;
  check_relayed_mail(email, "tool-hire.example", {}, findings);
  CHECK(find_key(findings, "form_relay_link") != nullptr);
}

TEST_CASE("link_only_mail: a few words and a hidden link to another site") {
  const std::string html = "<a href=\"https://promo.example/r/1\">Open now</a>";
  const std::string head =
      "From: Offers <info@offers-mail.example>\r\nSubject: Waiting\r\n"
      "Content-Type: text/html; charset=utf-8\r\n";
  for (const bool bulk : {false, true}) {
    CAPTURE(bulk);
    ParsedEmail email =
        parse(head + (bulk ? "List-Unsubscribe: <https://u.example/1>\r\n" : "") + "\r\n" + html);
    REQUIRE(email.parts.size() == 1);
    const EmailPart& part = email.parts.front();
    auto visible = std::make_shared<VisibleText>();
    visible->text = "Open now";
    visible->source_start.assign(visible->text.size(), 0);
    visible->source_end.assign(visible->text.size(), 1);
    const std::size_t at = part.text.find("https://promo.example/r/1");
    REQUIRE(at != std::string::npos);
    visible->links.push_back({at, at + 25, "https://promo.example/r/1"});
    part.visible = visible;
    Findings findings;
    check_relayed_mail(email, "offers-mail.example",
                       {url("https://promo.example/r/1", "promo.example", "promo.example")},
                       findings);
    const Finding* f = find_key(findings, "link_only_mail");
    if (bulk) {
      CHECK(f == nullptr);  // an image-only newsletter has the same shape
    } else {
      REQUIRE(f != nullptr);
      CHECK(f->severity == Severity::kHigh);
    }
  }
}

TEST_CASE("redirect_link: through Google AMP always, through /url?q= unless Google sent it") {
  const std::string body = "See https://www.google.com/amp/s/prize-page.example/win\r\n";
  {
    const ParsedEmail email = parse(
        "From: News <a@news.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body);
    Findings findings;
    check_relayed_mail(email, "news.example",
                       {url("https://www.google.com/amp/s/prize-page.example/win", "www.google.com",
                            "google.com")},
                       findings);
    const Finding* f = find_key(findings, "redirect_link");
    REQUIRE(f != nullptr);
    CHECK(f->severity == Severity::kHigh);
  }
  const std::string wrapped = "https://www.google.com/url?q=https://meet.example/abc&sa=D";
  for (const bool google : {false, true}) {
    CAPTURE(google);
    const ParsedEmail email =
        parse(std::string("From: Ann <ann@firm.example>\r\n") +
              (google ? "Message-ID: <abc123@google.com>\r\n" : "") +
              "Content-Type: text/plain; charset=utf-8\r\n\r\nJoin: " + wrapped + "\r\n");
    Findings findings;
    check_relayed_mail(email, "firm.example", {url(wrapped, "www.google.com", "google.com")},
                       findings);
    const Finding* f = find_key(findings, "redirect_link");
    REQUIRE(f != nullptr);
    CHECK(f->severity.has_value() == !google);
  }
}
