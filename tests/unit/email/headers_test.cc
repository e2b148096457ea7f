// Header checks: the value readers (email/header_parse.h), brand names in
// display names (email/header_names.h) and HeaderChecker end to end on
// hand-built ParsedEmail structs, asserting each finding's exact evidence
// and location.
#include "email/headers.h"

#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "data/data_source.h"
#include "decode/mime.h"
#include "email/email_checks.h"
#include "email/header_names.h"
#include "email/header_parse.h"
#include "url/url_analyzer.h"

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

const UrlAnalyzer& urls() {
  static const std::unique_ptr<UrlAnalyzer> a = [] {
    auto loaded = UrlAnalyzer::load(DataSource(SCAMCHECK_DATA_DIR));
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().to_string());
    return std::move(loaded.value());
  }();
  return *a;
}

const HeaderChecker& checker() {
  static const std::unique_ptr<HeaderChecker> c = [] {
    auto loaded = HeaderChecker::load(DataSource(SCAMCHECK_DATA_DIR), urls());
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().to_string());
    return std::move(loaded.value());
  }();
  return *c;
}

// A message with these headers (occurrence and count filled in as the
// parser does) and no parts.
ParsedEmail email(const std::vector<std::pair<std::string, std::string>>& headers) {
  ParsedEmail e;
  std::map<std::string, int> counts;
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (const auto& [name, value] : headers) ++counts[lower(name)];
  std::map<std::string, int> seen;
  for (const auto& [name, value] : headers) {
    EmailHeader h;
    h.name = name;
    h.value = value;
    h.occurrence = ++seen[lower(name)];
    h.count = counts[lower(name)];
    e.headers.push_back(std::move(h));
  }
  return e;
}

struct Hit {
  std::string location, evidence;
  double strength;
};

// key -> finding; checks that each span lies in its location's text.
std::map<std::string, Hit> run(const ParsedEmail& e) {
  Findings out;
  checker().check(e, out);
  std::map<std::string, Hit> hits;
  for (const Finding& f : out) {
    std::string_view text = e.text_of(f.location);
    INFO(f.key << " at " << f.location);
    REQUIRE(f.start < f.end);
    REQUIRE(f.end <= text.size());
    CHECK_MESSAGE(hits.count(f.key) == 0, "one finding per key");
    hits[f.key] = {f.location, std::string(text.substr(f.start, f.end - f.start)), f.strength};
  }
  return hits;
}

std::string name_of(std::string_view v, const Mailbox& m) { return std::string(m.name.of(v)); }
std::string addr_of(std::string_view v, const Mailbox& m) { return std::string(m.address.of(v)); }
std::string dom_of(std::string_view v, const Mailbox& m) { return std::string(m.domain.of(v)); }

// The brands (display names) DisplayNameBrands finds in `text`.
std::vector<std::string> brands_in(std::string_view text) {
  static const DisplayNameBrands names(urls().brand_table());
  std::vector<DisplayNameBrands::Claim> claims;
  names.find(text, {0, text.size()}, claims);
  std::vector<std::string> out;
  for (const auto& c : claims) {
    out.push_back(urls().brand_table().brands()[static_cast<std::size_t>(c.brand)].id + "=" +
                  std::string(c.span.of(text)));
  }
  return out;
}

}  // namespace

TEST_CASE("mailboxes: display name, address and domain as written") {
  std::string v = "\"PayPal Service\" <Service@PayPal-Secure.com>";
  Mailbox m = parse_mailbox(v);
  CHECK(name_of(v, m) == "PayPal Service");
  CHECK(addr_of(v, m) == "Service@PayPal-Secure.com");
  CHECK(dom_of(v, m) == "PayPal-Secure.com");

  v = "PayPal<Support@Account.com>";
  m = parse_mailbox(v);
  CHECK(name_of(v, m) == "PayPal");
  CHECK(dom_of(v, m) == "Account.com");

  v = "\"America Express\" <info9911@secure.com";  // missing '>'
  m = parse_mailbox(v);
  CHECK(name_of(v, m) == "America Express");
  CHECK(addr_of(v, m) == "info9911@secure.com");

  v = "anna@example.org (Anna Beispiel)";
  m = parse_mailbox(v);
  CHECK(name_of(v, m) == "Anna Beispiel");
  CHECK(addr_of(v, m) == "anna@example.org");

  v = "\"Nocibé\", <news@ml.example.fr>";  // decoded name with a stray comma
  m = parse_mailbox(v);
  CHECK(name_of(v, m) == "Nocibé");
  CHECK(dom_of(v, m) == "ml.example.fr");

  v = "\"Müller, Jörg \\\"Jo\\\"\" <jo@example.de>";
  m = parse_mailbox(v);
  CHECK(dom_of(v, m) == "example.de");

  v = "<>";
  m = parse_mailbox(v);
  CHECK(m.address.empty());
  CHECK(m.domain.empty());

  v = "Mail Delivery System";
  m = parse_mailbox(v);
  CHECK(name_of(v, m) == "Mail Delivery System");
  CHECK(m.address.empty());

  v = "\"A, B\" <a@x-example.com>, c@y-example.org; \"D\" <d@z-example.net>";
  std::vector<Mailbox> list = parse_mailbox_list(v);
  REQUIRE(list.size() == 3);
  CHECK(name_of(v, list[0]) == "A, B");
  CHECK(addr_of(v, list[0]) == "a@x-example.com");
  CHECK(addr_of(v, list[1]) == "c@y-example.org");
  CHECK(dom_of(v, list[2]) == "z-example.net");
}

TEST_CASE("addresses and domains inside a display name") {
  std::string v = "service@paypal.com via Support";
  auto a = addresses_in(v, {0, v.size()});
  REQUIRE(a.size() == 1);
  CHECK(a[0].address.of(v) == "service@paypal.com");
  CHECK(a[0].domain.of(v) == "paypal.com");
  CHECK(addresses_in("phishing@pot", {0, 12}).empty());  // no top-level domain

  v = "Amazon.de Kundenservice";
  auto d = domains_in(v, {0, v.size()});
  REQUIRE(d.size() == 1);
  CHECK(d[0].of(v) == "Amazon.de");
  v = "Dr. Jones 2.0";
  CHECK(domains_in(v, {0, v.size()}).empty());
}

TEST_CASE("dates: RFC 5322 with obsolete forms; malformed and impossible values") {
  DateTime d = parse_date("Sat, 02 Mar 2024 04:51:13 +0000");
  REQUIRE(d.status == DateTime::Status::kOk);
  CHECK(d.epoch == 1709355073);
  d = parse_date("Fri, 01 Mar 2024 23:51:13 -0500 (EST)");
  REQUIRE(d.status == DateTime::Status::kOk);
  CHECK(d.epoch == 1709355073);
  d = parse_date("2 Mar 24 04:51 GMT");  // two-digit year, no seconds, no weekday
  REQUIRE(d.status == DateTime::Status::kOk);
  CHECK(d.epoch == 1709355060);
  CHECK(parse_date("Sat Mar  2 04:51:13 2024").status == DateTime::Status::kOk);  // asctime
  CHECK(parse_date("Thu, 22 Aug 2002 18:26:25 +0700").status == DateTime::Status::kOk);

  CHECK(parse_date("12-04-2023").status == DateTime::Status::kMalformed);
  CHECK(parse_date("").status == DateTime::Status::kMalformed);
  CHECK(parse_date("soon").status == DateTime::Status::kMalformed);
  CHECK(parse_date("Wed, 24 Jul 2002 05:52:07 -1600").status == DateTime::Status::kImpossible);
  CHECK(parse_date("Wed, 24 Jul 0102 05:30:52 -0700").status == DateTime::Status::kImpossible);
  CHECK(parse_date("Wed, 30 Jul 1980 18:25:49").status == DateTime::Status::kImpossible);
  CHECK(parse_date("Fri, 31 Mar 2023 10:00:00 +0000").status == DateTime::Status::kOk);
  CHECK(parse_date("Mon, 31 Apr 2023 10:00:00 +0000").status == DateTime::Status::kImpossible);
  CHECK(parse_date("Mon, 10 Foo 2023 10:00:00 +0000").status == DateTime::Status::kMalformed);
  CHECK(parse_date("Mon, 10 Apr 2023 25:00:00 +0000").status == DateTime::Status::kImpossible);

  d = received_date("from a (b [192.0.2.1]) by mx.example.net; Sat, 2 Mar 2024 04:51:13 +0000");
  REQUIRE(d.status == DateTime::Status::kOk);
  CHECK(d.epoch == 1709355073);
}

TEST_CASE("received lines: HELO, reverse name and address") {
  std::string v =
      "from usaa.com (173-13-78-138-NewEngland.hfc.comcastbusiness.net [173.13.78.138])\n\tby "
      "imf22.b.hostedemail.com (Postfix) with ESMTP";
  ReceivedFrom r = parse_received_from(v);
  CHECK(r.valid);
  CHECK(r.helo.of(v) == "usaa.com");
  CHECK(r.reverse.of(v) == "173-13-78-138-NewEngland.hfc.comcastbusiness.net");
  CHECK(r.ip.of(v) == "173.13.78.138");

  v = "from [98.143.37.61] (port=52774 helo=User) by alpen.example.com with esmtpa";
  r = parse_received_from(v);
  CHECK(r.helo.of(v) == "User");
  CHECK(r.ip.of(v) == "98.143.37.61");
  CHECK(r.reverse.empty());

  v = "from lvuy.example.co.uk (130.131.48.115) by BN1PEPF0000468E.mail.protection.outlook.com";
  r = parse_received_from(v);
  CHECK(r.helo.of(v) == "lvuy.example.co.uk");
  CHECK(r.ip.of(v) == "130.131.48.115");
  CHECK(r.reverse.empty());

  CHECK_FALSE(parse_received_from("by mail.example.com (Postfix, from userid 0)").valid);

  CHECK(classify_ipv4("192.168.3.23").internal);
  CHECK_FALSE(classify_ipv4("201.357.369.35").valid);
  CHECK(classify_ipv4("201.357.369.35").dotted);
  CHECK_FALSE(classify_ipv4("fe80::1").dotted);
}

TEST_CASE("authentication results") {
  std::string v =
      "spf=none (sender IP is 81.28.7.203)\r\n smtp.mailfrom=example.net; dkim=none (message "
      "not signed)\r\n header.d=none;dmarc=fail action=none\r\n header.from=example.com";
  std::vector<AuthResult> r = parse_auth_results(v);
  REQUIRE(r.size() == 3);
  CHECK(r[0].token.of(v) == "spf=none");
  CHECK(r[1].token.of(v) == "dkim=none");
  CHECK(r[2].token.of(v) == "dmarc=fail");
  CHECK(r[2].result == "fail");
  // Results inside comments or quotes are not results.
  v = "mx.example.net; dkim=pass (not spf=fail) reason=\"dmarc=fail\"";
  r = parse_auth_results(v);
  REQUIRE(r.size() == 1);
  CHECK(r[0].token.of(v) == "dkim=pass");

  v = "Softfail (protection.outlook.com: domain of example.net does not designate ...)";
  r = parse_received_spf(v);
  REQUIRE(r.size() == 1);
  CHECK(r[0].token.of(v) == "Softfail");
}

TEST_CASE("brand names in display names: whole words, spelled out, disguised") {
  using V = std::vector<std::string>;
  CHECK(brands_in("PayPal Service") == V{"paypal=PayPal"});
  CHECK(brands_in("Sparkasse Kundenservice") == V{"sparkasse=Sparkasse"});
  CHECK(brands_in("DHL-Express") == V{"dhl=DHL"});
  CHECK(brands_in("D/H/L-verzending") == V{"dhl=D/H/L"});
  CHECK(brands_in("Amazon.de") == V{"amazon=Amazon"});
  CHECK(brands_in("Bank of America Alerts") == V{"bankofamerica=Bank of America"});
  CHECK(brands_in("AppleID") == V{"apple=AppleID"});
  CHECK(brands_in("Apple Support") == V{"apple=Apple"});
  CHECK(brands_in("WeTransfer") == V{"wetransfer=WeTransfer"});
  CHECK(brands_in("Crédit Agricole") == V{"creditagricole=Crédit Agricole"});
  // Look-alikes and typos.
  CHECK(brands_in("Navy FederaI") == V{"navyfederal=Navy FederaI"});
  CHECK(brands_in("Micros0ft Account Team") == V{"microsoft=Micros0ft"});
  CHECK(brands_in("America Express") == V{"amex=America Express"});
  CHECK(brands_in("M\u0435t\u0430\u041c\u0430sk.io") == V{"metamask=M\u0435t\u0430\u041c\u0430sk"});
  CHECK(brands_in("\U0001D5E3\U0001D5EE\U0001D606\U0001D5E3\U0001D5EE\U0001D5F9") ==
        V{"paypal=\U0001D5E3\U0001D5EE\U0001D606\U0001D5E3\U0001D5EE\U0001D5F9"});
  // Ambiguous short names need a name of service words only.
  CHECK(brands_in("Ledger Support") == V{"ledger=Ledger"});
  CHECK(brands_in("Ledger Nano Sale").empty());
  CHECK(brands_in("Jim Rogers").empty());
  CHECK(brands_in("AT&T Customer Care") == V{"att=AT&T"});
  CHECK(brands_in("Zimmer 11 Support").empty());
  // Not inside other words, not first names.
  CHECK(brands_in("Amelia Smith").empty());
  CHECK(brands_in("Betsy Ross").empty());
  CHECK(brands_in("George Michaelson").empty());
  CHECK(brands_in("Craig Hughes").empty());
  CHECK(brands_in("Telefonia Nacional").empty());
}

TEST_CASE("display_name_impersonation: a brand's name on another domain") {
  auto hits = run(email({{"From", "\"PayPal Service\" <service@kundenkonto-hilfe.com>"}}));
  REQUIRE(hits.count("display_name_impersonation"));
  CHECK(hits["display_name_impersonation"].location == "header:From");
  CHECK(hits["display_name_impersonation"].evidence == "PayPal");

  hits = run(email({{"From", "Sparkasse Kundenservice <info@sicherheit-online24.net>"}}));
  CHECK(hits["display_name_impersonation"].evidence == "Sparkasse");

  // Freemail mailboxes are nobody's official sender, even on the brand's
  // own freemail domain.
  hits = run(email({{"From", "Microsoft account team <ms.konto.team@outlook.com>"}}));
  CHECK(hits["display_name_impersonation"].evidence == "Microsoft");

  // The brand's own domains, sub-domains, country domains: nothing.
  for (const char* from :
       {"PayPal <service@paypal.de>", "\"Amazon.de\" <versand@amazon.de>",
        "DHL Paket <noreply@dhl.de>", "Apple <no_reply@email.apple.com>",
        "Microsoft Outlook <no-reply@microsoft.com>", "Yahoo News <news@reply.yahoo.com>",
        "Sparkasse KölnBonn <service@sparkasse-koelnbonn.de>",
        "Anna Becker <anna.becker@gmail.com>"}) {
    INFO(from);
    CHECK(run(email({{"From", from}})).empty());
  }

  // A publication of the sender's own organisation that mentions a brand.
  CHECK(run(email({{"From", "Lockergnome Apple Core <subscriptions@lockergnome.com>"}})).empty());
  // ... but not a service word or a domain that merely shares the name.
  hits = run(email({{"From", "\"PayPal Support\" <team@support.com>"}}));
  CHECK(hits["display_name_impersonation"].evidence == "PayPal");
}

TEST_CASE("display_name_impersonation: addresses and domains in the display name") {
  auto hits = run(email({{"From", "\"service@paypal.com\" <noreply@mailer-kundeninfo.com>"}}));
  CHECK(hits["display_name_impersonation"].evidence == "service@paypal.com");

  // The whole display name is another address.
  hits = run(email({{"From", "\"anna@beispiel-firma.de\" <x2831@gutschein-welt.net>"}}));
  CHECK(hits["display_name_impersonation"].evidence == "anna@beispiel-firma.de");
  CHECK(hits["display_name_impersonation"].strength == 1.0);

  // A domain shown as the sender, with service words only: a weaker claim.
  hits = run(email({{"From", "beispiel-firma.de IT Support <admin@gutschein-welt.net>"}}));
  CHECK(hits["display_name_impersonation"].evidence == "beispiel-firma.de");
  CHECK(hits["display_name_impersonation"].strength == doctest::Approx(0.4));

  // Mailing lists name the poster; publications name themselves.
  CHECK(run(email({{"From",
                    "\"'anna@beispiel-firma.de' via Vereinsliste\" "
                    "<vereinsliste@googlegroups.com>"}}))
            .empty());
  CHECK(run(email({{"From", "\"CNET News.com Daily Dispatch\" <online@newsletter.online.com>"}}))
            .empty());
  CHECK(run(email({{"From", "\"anna@beispiel-firma.de\" <anna@beispiel-firma.de>"}})).empty());
}

TEST_CASE("sender_lookalike_domain: the From domain imitates a brand") {
  auto hits = run(email({{"From", "PayPal <service@paypa1.com>"}}));
  REQUIRE(hits.count("sender_lookalike_domain"));
  CHECK(hits["sender_lookalike_domain"].evidence == "paypa1.com");
  CHECK(hits["sender_lookalike_domain"].location == "header:From");
  CHECK(hits["display_name_impersonation"].evidence == "PayPal");

  hits = run(email({{"From", "Kundenservice <info@email-telekom.de>"}}));
  CHECK(hits["sender_lookalike_domain"].evidence == "email-telekom.de");

  // A brand glued into an unrelated word is not a look-alike sender.
  CHECK(run(email({{"From", "The Mouthpiece <listmanager@shagmail.com>"}})).empty());
}

TEST_CASE("reply_to_mismatch") {
  auto hits = run(email({{"From", "Stadtwerke Musterstadt <rechnung@stadtwerke-musterstadt.de>"},
                         {"Reply-To", "Buchhaltung <stadtwerke.rechnung@gmail.com>"}}));
  REQUIRE(hits.count("reply_to_mismatch"));
  CHECK(hits["reply_to_mismatch"].location == "header:Reply-To");
  CHECK(hits["reply_to_mismatch"].evidence == "stadtwerke.rechnung@gmail.com");

  // One freemail mailbox answering for another.
  hits = run(email({{"From", "Mr. Barr Andersen <barr.andersen@yahoo.com>"},
                    {"Reply-To", "barr.m.andersen@outlook.com"}}));
  CHECK(hits["reply_to_mismatch"].evidence == "barr.m.andersen@outlook.com");

  // A sender claiming a brand, replies going to an unrelated domain.
  hits = run(email({{"From", "PayPal <service@kundenkonto-hilfe.com>"},
                    {"Reply-To", "support@konto-klaerung.net"}}));
  CHECK(hits["reply_to_mismatch"].evidence == "support@konto-klaerung.net");

  // Platforms sending for their users: the user is the Reply-To.
  for (const auto& [from, reply] : std::vector<std::pair<std::string, std::string>>{
           {"\"Anna Becker (via Google Docs)\" <drive-shares-dm-noreply@google.com>",
            "Anna Becker <anna.becker@gmail.com>"},
           {"\"Tom Miller via DocuSign\" <dse_na2@docusign.net>", "tom@miller-bau.com"},
           {"Facebook <notification@facebookmail.com>", "noreply@support-hilfe.net"}}) {
    INFO(from << " / " << reply);
    CHECK(run(email({{"From", from}, {"Reply-To", reply}})).empty());
  }

  // Same organisation, sub-domains, mailing lists, ordinary helpdesks.
  for (const auto& [from, reply] : std::vector<std::pair<std::string, std::string>>{
           {"shop@beispiel-shop.de", "hilfe@support.beispiel-shop.de"},
           {"news@beispiel-shop.de", "kontakt@beispiel-shop.com"},
           {"ebay <ebay@ebay.com>", "member@ebay.de"},
           {"anna@gmail.com", "anna.b@gmail.com"},
           {"Verein <info@verein-beispiel.de>", "vorstand@verein-beispiel.org"},
           {"shop@beispiel-shop.de", "tickets@zendesk.com"}}) {
    INFO(from << " / " << reply);
    CHECK(run(email({{"From", from}, {"Reply-To", reply}})).empty());
  }
  CHECK(run(email({{"From", "Anna <anna@beispiel-firma.de>"},
                   {"Reply-To", "liste@gmail.com"},
                   {"List-Id", "<liste.example.org>"}}))
            .empty());
}

TEST_CASE("return_path_mismatch and message_id_mismatch for a sender claiming a brand") {
  auto hits = run(email({{"Return-Path", "<root@vps-2231.hosting-billig.net>"},
                         {"From", "Amazon <konto@amazon.de>"},
                         {"Message-ID", "<20240301.4411@vps-2231.hosting-billig.net>"}}));
  REQUIRE(hits.count("return_path_mismatch"));
  CHECK(hits["return_path_mismatch"].location == "header:Return-Path");
  CHECK(hits["return_path_mismatch"].evidence == "vps-2231.hosting-billig.net");
  REQUIRE(hits.count("message_id_mismatch"));
  CHECK(hits["message_id_mismatch"].location == "header:Message-ID");
  CHECK(hits["message_id_mismatch"].evidence == "vps-2231.hosting-billig.net");

  // Sending services and mail hosts are normal there.
  CHECK(run(email({{"Return-Path", "<bounces+1234-abcd@sendgrid.net>"},
                   {"From", "Amazon <konto@amazon.de>"},
                   {"Message-ID", "<a1b2c3@eu-west-1.amazonses.com>"}}))
            .empty());
  CHECK(run(email({{"Return-Path", "<0100018e@amazonses.com>"},
                   {"From", "PayPal <service@paypal.de>"},
                   {"Message-ID", "<AM0PR01MB1234@AM0PR01MB1234.eurprd01.prod.outlook.com>"}}))
            .empty());
  // Documentation domains stand where an address was removed.
  CHECK(run(email({{"Return-Path", "nobody@example.com"},
                   {"From", "QuickTime News <quicktime_news@applenews.lists.apple.com>"}}))
            .empty());
  // Nobody's brand: a different Return-Path is everyday mail.
  CHECK(run(email({{"Return-Path", "<bounce-77@lists.verein-beispiel.org>"},
                   {"From", "Anna <anna@beispiel-firma.de>"},
                   {"Message-ID", "<1234@pc-anna.local-lan.net>"}}))
            .empty());
}

TEST_CASE("auth_failure for a sender claiming a brand") {
  auto hits =
      run(email({{"Authentication-Results",
                  "mx.example.net; spf=softfail smtp.mailfrom=paypal.com; dkim=none; dmarc=fail "
                  "(p=REJECT) header.from=paypal.com"},
                 {"From", "PayPal <service@paypal.com>"}}));
  REQUIRE(hits.count("auth_failure"));
  CHECK(hits["auth_failure"].location == "header:Authentication-Results");
  CHECK(hits["auth_failure"].evidence == "dmarc=fail");
  CHECK(hits["auth_failure"].strength == 1.0);

  hits = run(email({{"Received-SPF",
                     "Fail (protection.outlook.com: domain of dhl.de does not "
                     "designate 203.0.113.7 as permitted sender)"},
                    {"From", "DHL Express <noreply@dhl.de>"}}));
  CHECK(hits["auth_failure"].evidence == "Fail");
  CHECK(hits["auth_failure"].location == "header:Received-SPF");

  // Several kinds: the strongest result of the topmost of each wins.
  hits = run(email({{"ARC-Authentication-Results", "i=2; mx.example.net; dmarc=none"},
                    {"Authentication-Results", "mx.example.org; spf=none"},
                    {"Authentication-Results", "internal.example.org; dkim=fail"},
                    {"From", "Netflix <info@konto-netflix-hilfe.com>"}}));
  CHECK(hits["auth_failure"].evidence == "dmarc=none");
  CHECK(hits["auth_failure"].location == "header:ARC-Authentication-Results");
  hits = run(email({{"Authentication-Results", "mx.example.org; spf=none"},
                    {"Authentication-Results", "mx.example.org; dmarc=fail"},
                    {"From", "Netflix <info@konto-netflix-hilfe.com>"}}));
  CHECK(hits["auth_failure"].evidence == "spf=none");
  CHECK(hits["auth_failure"].location == "header:Authentication-Results#1");

  // Passing DMARC, or a valid DKIM signature with SPF broken by forwarding.
  CHECK_FALSE(run(email({{"Authentication-Results",
                          "mx.example.net; spf=fail; dkim=pass header.d=paypal.com; dmarc=pass"},
                         {"From", "PayPal <service@paypal.com>"}}))
                  .count("auth_failure"));
  CHECK_FALSE(run(email({{"Authentication-Results", "mx.example.net; spf=fail; dkim=pass"},
                         {"Received-SPF", "softfail (forwarded)"},
                         {"From", "PayPal <service@paypal.com>"}}))
                  .count("auth_failure"));
  // No brand claimed: missing records are everyday.
  CHECK(run(email({{"Authentication-Results", "mx.example.net; spf=none; dkim=none; dmarc=none"},
                   {"From", "Anna <anna@beispiel-firma.de>"}}))
            .empty());
}

TEST_CASE("received_chain_anomaly") {
  auto hits = run(
      email({{"Received", "from mx.example.net (mx.example.net [192.0.2.10]) by mail.example.net"},
             {"Received",
              "from paypal.com (dsl-203-0-113-9.dyn.isp-beispiel.net [203.0.113.9]) by "
              "mx.example.net (Postfix)"},
             {"From", "Anna <anna@beispiel-firma.de>"}}));
  REQUIRE(hits.count("received_chain_anomaly"));
  CHECK(hits["received_chain_anomaly"].location == "header:Received#2");
  CHECK(hits["received_chain_anomaly"].evidence == "paypal.com");

  hits = run(email({{"Received", "from gmail.com (unknown [96.72.125.180]) by mx.example.net"}}));
  CHECK(hits["received_chain_anomaly"].evidence == "gmail.com");

  hits = run(email({{"Received", "From earthlink.pub.atlga (201.357.369.35) by relay"}}));
  CHECK(hits["received_chain_anomaly"].evidence == "201.357.369.35");

  for (const char* r :
       {"from mail-vs1-f41.google.com (mail-vs1-f41.google.com [209.85.217.41]) by mx",
        "from wstutil13a.ml.com (wstutil13a [146.125.185.11]) by wstutil12a.ml.com",
        "from paypal.com (localhost [127.0.0.1]) by mx.example.net",
        "from paypal.com (203.0.113.9) by BN1PEPF0000468E.mail.protection.outlook.com",
        "from [192.168.1.20] (p5dd1.dip0.t-ipconnect.de [93.209.93.1]) by mail.example.de"}) {
    INFO(r);
    CHECK(run(email({{"Received", r}})).empty());
  }
}

TEST_CASE("malformed_from: stray text between a quoted display name and the address") {
  auto hits = run(email({{"From", "\"Temu.es \",zow<info@shop.example>"}}));
  CHECK(hits["malformed_from"].evidence == "\"Temu.es \",zow");
  CHECK(hits["malformed_from"].location == "header:From");
  hits = run(email({{"From", "\"Die Lösung!\", <service@shop.example>"}}));
  CHECK(hits["malformed_from"].evidence == "\"Die Lösung!\",");
  // Well-formed senders and lists of mailboxes.
  for (const char* from : {"\"Shop, Inc.\" <info@shop.example>", "Shop <info@shop.example>",
                           "\"Anna\" <anna@a.example>, \"Ben\" <ben@b.example>",
                           "\"Anna\", ben@b.example", "info@shop.example (Shop)"}) {
    INFO(from);
    CHECK(run(email({{"From", from}})).count("malformed_from") == 0);
  }
}

TEST_CASE("unusual_date: present and malformed, impossible, or after delivery") {
  auto hits = run(email({{"Date", "12-04-2023"}}));
  CHECK(hits["unusual_date"].evidence == "12-04-2023");
  CHECK(hits["unusual_date"].location == "header:Date");

  hits = run(email({{"Date", " Wed, 24 Jul 2002 05:52:07 -1600"}}));
  CHECK(hits["unusual_date"].evidence == "Wed, 24 Jul 2002 05:52:07 -1600");

  const char* received =
      "from a.example.net (a.example.net [192.0.2.1]) by mx.example.net; "
      "Sat, 02 Mar 2024 04:51:13 +0000";
  hits = run(email({{"Received", received}, {"Date", "Fri, 08 Mar 2024 19:04:33 -0500"}}));
  CHECK(hits["unusual_date"].evidence == "Fri, 08 Mar 2024 19:04:33 -0500");

  // Old dates, time zones and a little clock skew are normal; a missing
  // Date is no evidence at all.
  CHECK(run(email({{"Received", received}, {"Date", "Sat, 02 Mar 2024 08:30:00 +0200"}})).empty());
  CHECK(run(email({{"Received", received}, {"Date", "Thu, 22 Aug 2002 18:26:25 +0700"}})).empty());
  CHECK(run(email({{"Received", received}, {"Subject", "Hallo"}})).empty());
}

TEST_CASE("recipient headers are never evidence") {
  ParsedEmail e = email({{"To", "PayPal <service@paypa1.com>"},
                         {"Cc", "\"service@paypal.com\" <x@mailer-kundeninfo.com>"},
                         {"Delivered-To", "paypal@paypa1.com"},
                         {"X-Original-To", "support@paypa1.com"},
                         {"Envelope-To", "Date: 12-04-2023"},
                         {"From", "Anna <anna@beispiel-firma.de>"}});
  CHECK(run(e).empty());
}

TEST_CASE("mail provider list: tags and errors") {
  auto mp = MailProviders::load(DataSource(SCAMCHECK_DATA_DIR));
  REQUIRE_MESSAGE(mp.ok(), mp.status().to_string());
  CHECK((mp->tags("gmail.com") & MailProviders::kFreemail) != 0);
  CHECK((mp->tags("sendgrid.net") & MailProviders::kEsp) != 0);
  CHECK((mp->tags("outlook.com") & MailProviders::kMailhost) != 0);
  CHECK(mp->tags("beispiel-firma.de") == 0);
  auto missing = HeaderChecker::load(DataSource("/nonexistent/dir"), urls());
  CHECK_FALSE(missing.ok());
}

TEST_CASE("url analyzer helpers used by the header checks") {
  CHECK(urls().registrable_domain("Mail.PayPal.COM") == "paypal.com");
  CHECK(urls().registrable_domain("a.b.example.co.uk") == "example.co.uk");
  CHECK(urls().registrable_domain("b\u00fccher.de") == "xn--bcher-kva.de");
  CHECK(urls().registrable_domain("pop3.norton.antivirus").empty());
  CHECK(urls().registrable_domain("correios").empty());
  CHECK(urls().registrable_domain("192.0.2.1").empty());
  CHECK(urls().registrable_domain("a b.com").empty());
  CHECK(urls().lookalike_brand("paypal.com").strength == 0);
  auto la = urls().lookalike_brand("paypa1.com");
  CHECK(la.strength > 0);
  REQUIRE(la.brand >= 0);
  CHECK(urls().brand_table().brands()[static_cast<std::size_t>(la.brand)].id == "paypal");
  CHECK(urls().lookalike_brand("beispiel-firma.de").strength == 0);
}

TEST_CASE("odd header values: no crash, every span inside its value") {
  // Fragments of real-world breakage glued together at random.
  const std::vector<std::string> parts = {"\"",
                                          "<",
                                          ">",
                                          "@",
                                          "(",
                                          ")",
                                          ",",
                                          ";",
                                          " ",
                                          "\t",
                                          "\\",
                                          "=",
                                          ":",
                                          "[",
                                          "]",
                                          "PayPal",
                                          "paypa1.com",
                                          "Sparkasse",
                                          "\xD0\x9C\xD0\xB5",
                                          "\xF0\x9D\x97\xA3",
                                          "\xC3\xA9",
                                          "dmarc=",
                                          "fail",
                                          "spf=none",
                                          "from ",
                                          "by ",
                                          "unknown",
                                          "192.168.1.1",
                                          "301.2.3.4",
                                          "Mon, 32 Foo 99999 99:99:99 +9999",
                                          "12:00",
                                          "2024",
                                          "x@y.com",
                                          "a@b",
                                          ".de",
                                          "\xFF",
                                          "\xC3",
                                          "\xE2\x82",
                                          "helo=",
                                          "HELO ",
                                          "mail.example.org",
                                          "-",
                                          ".."};
  unsigned seed = 12345;
  auto next = [&] {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) & 0x7FFF;
  };
  const char* names[] = {"From",
                         "Reply-To",
                         "Return-Path",
                         "Message-ID",
                         "Date",
                         "Received",
                         "Authentication-Results",
                         "Received-SPF",
                         "ARC-Authentication-Results"};
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::pair<std::string, std::string>> headers;
    for (const char* n : names) {
      std::string v;
      int len = static_cast<int>(next() % 12);
      for (int k = 0; k < len; ++k) v += parts[next() % parts.size()];
      headers.emplace_back(n, v);
    }
    run(email(headers));  // REQUIREs the span invariants
  }
}

TEST_CASE("risky_tld: a sender address under a mostly abused suffix") {
  auto hits = run(email({{"From", "Offers <info@deals-4you.top>"}}));
  REQUIRE(hits.count("risky_tld") == 1);
  CHECK(hits["risky_tld"].location == "header:From");
  CHECK(run(email({{"From", "Shop <news@shop.example.com>"}})).count("risky_tld") == 0);
}

TEST_CASE("free_hosting: a sender address on a platform anyone can sign up to") {
  auto hits = run(email({{"From", "1000Spins <noreply@frances4-e8377.firebaseapp.com>"}}));
  REQUIRE(hits.count("free_hosting") == 1);
  CHECK(hits["free_hosting"].location == "header:From");
  CHECK(hits["free_hosting"].evidence.find("firebaseapp.com") != std::string::npos);
  CHECK(run(email({{"From", "Shop <news@shop.example.com>"}})).count("free_hosting") == 0);
  CHECK(run(email({{"From", "Anna <anna@gmail.com>"}})).count("free_hosting") == 0);
}

TEST_CASE("sender_site: From's registrable domain, none for freemail") {
  CHECK(checker().sender_site(email({{"From", "News <news@mail.shop.example.co.uk>"}})) ==
        "example.co.uk");
  CHECK(checker().sender_site(email({{"From", "Anna <anna@gmail.com>"}})).empty());
  CHECK(checker().sender_site(email({{"Subject", "no sender"}})).empty());
}
