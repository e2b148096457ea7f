// The path-shape signals (hijacked_site_path, random_code_folder,
// domain_in_path), hosting_server_name, and the keyword and brand data
// they work with: each with its exact evidence, and the legitimate links
// that look similar but must stay quiet.
#include "url/path_checks.h"

#include <doctest/doctest.h>
#include <simdjson.h>

#include <map>
#include <set>
#include <string>

#include "data/data_source.h"
#include "url/url_analyzer.h"
#include "url/url_input.h"
#include "url_test_support.h"

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

using testing::Outcome;

// Analyzes `content` as kind "url".
Outcome run(const std::string& content) {
  Outcome o;
  testing::analyze_link(content, link_for_url_input(content), o);
  return o;
}

}  // namespace

TEST_CASE("is_static_file and is_hex_code") {
  CHECK(is_static_file("logo.PNG"));
  CHECK(is_static_file("report.pdf"));
  CHECK(is_static_file("jquery.min.js"));
  CHECK_FALSE(is_static_file("login.php"));
  CHECK_FALSE(is_static_file("index.html"));
  CHECK_FALSE(is_static_file("signin"));
  CHECK(is_hex_code("fbf4ee7801fb92dcbf45f99c290de21a"));
  CHECK(is_hex_code("9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B"));
  CHECK_FALSE(is_hex_code("5f1e2d3c"));                              // too short
  CHECK_FALSE(is_hex_code("c7d5c37a-d73e-4f73-9a99-c6a504a53cbd"));  // a UUID
  CHECK_FALSE(is_hex_code("123456789012345678901234567890"));        // digits only
}

TEST_CASE("hijacked_site_path: pages inside a site's system folders") {
  Outcome o = run("http://opcbuilders.example/wp-includes/pomo/404/biggie/crypt");
  CHECK(o.evidence["hijacked_site_path"] == "wp-includes");
  CHECK(o.strength["hijacked_site_path"] == doctest::Approx(1.0));
  o = run("https://bakery.example.com/wp-content/uploads/2020/05/secure/index.php");
  CHECK(o.evidence["hijacked_site_path"] == "wp-content");
  o = run("https://www.jacarandacc.example.au/wp-admin/js");
  CHECK(o.evidence["hijacked_site_path"] == "wp-admin");
  o = run("http://example.com/wp-admin/trademepay/1330dd2eb6a5ad833a16fc2c7181b10b/banklog.htm");
  CHECK(o.evidence["hijacked_site_path"] == "wp-admin");
  CHECK(o.evidence["random_code_folder"] == "1330dd2eb6a5ad833a16fc2c7181b10b");
  o = run("https://crm.example.com/administrator/Help/myaccount/signin/");
  CHECK(o.evidence["hijacked_site_path"] == "administrator");
  o = run("http://www.example.com/components/com_contact/ggdrives/");
  CHECK(o.evidence["hijacked_site_path"] == "components");
  o = run("https://example.org/.well-known/acme-challenge/.dir/email.html");
  CHECK(o.evidence["hijacked_site_path"] == ".well-known");
  o = run("https://example.org/.well-known/pki-validation/login.php");
  CHECK(o.evidence["hijacked_site_path"] == ".well-known");
  o = run("http://example.com/~user/web/.unknown/.cgi/.hitaccess/onset/details.html");
  CHECK(o.evidence["hijacked_site_path"] == ".unknown");
  o = run("http://example.com/sites/default/files/pictures/index1.htm");
  CHECK(o.evidence["hijacked_site_path"] == "sites");
  // Asset folders with a page below are odd but weak on their own.
  o = run("http://www.example.com/css/32832942304/zahlungsinformationen.html");
  CHECK(o.evidence["hijacked_site_path"] == "css");
  CHECK(o.strength["hijacked_site_path"] == doctest::Approx(0.5));
  o = run("https://www.example.com/assets/docs/manual.html");
  CHECK(o.strength["hijacked_site_path"] < 0.6);
}

TEST_CASE("hijacked_site_path: what site owners and visitors really get") {
  for (const char* url : {
           "https://www.smith-bakery.co.uk/wp-content/uploads/2023/05/menu.pdf",
           "https://www.smith-bakery.co.uk/wp-content/themes/astra/style.css",
           "https://www.smith-bakery.co.uk/wp-admin/",
           "https://www.smith-bakery.co.uk/wp-admin/comment.php?action=approve&c=123",
           "https://www.smith-bakery.co.uk/wp-admin/post.php?post=45&action=edit",
           "https://www.smith-bakery.co.uk/wp-admin/network/sites.php",
           "https://www.smith-bakery.co.uk/wp-json/wp/v2/posts",
           "https://www.verein-example.de/administrator/index.php",
           "https://www.verein-example.de/index.php?option=com_content&view=article&id=12",
           "https://www.verein-example.de/images/stories/flyer.pdf",
           "https://www.example.org/.well-known/security.txt",
           "https://www.example.org/.well-known/change-password",
           "https://www.example.org/.well-known/acme-challenge/"
           "LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0",
           "https://www.example.org/sites/default/files/annual-report.pdf",
           "https://lists.example.org/cgi-bin/mailman/listinfo/users",
           "https://www.example.com/images/logo.png",
           "https://app.example.com/.auth/login/aad/callback",
       }) {
    CAPTURE(url);
    CHECK_FALSE(run(url).has("hijacked_site_path"));
  }
}

TEST_CASE("random_code_folder: a per-victim folder named by a hash") {
  Outcome o = run("http://rinedent.example/98a111c637863413c25d8b03c467496e/index2.php");
  CHECK(o.evidence["random_code_folder"] == "98a111c637863413c25d8b03c467496e");
  CHECK(o.strength["random_code_folder"] == doctest::Approx(1.0));
  o = run("http://example.com/mo/e56508df639f6ce7d55c81ee3fcd5ba8/");
  CHECK(o.evidence["random_code_folder"] == "e56508df639f6ce7d55c81ee3fcd5ba8");
  CHECK(o.strength["random_code_folder"] < 0.5);
  // A hash as the last part is an ordinary token; files below a hash are
  // cache-busting asset paths.
  CHECK_FALSE(run("https://news.example.com/unsubscribe/5f1e2d3c4b5a69788796a5b4c3d2e1f0")
                  .has("random_code_folder"));
  CHECK_FALSE(run("https://www.gravatar.com/avatar/205e460b479e2e5b48aec07710c08d50")
                  .has("random_code_folder"));
  CHECK_FALSE(run("https://cdn.example.com/9f86d081884c7d659a2feaa0c55ad015/app.js")
                  .has("random_code_folder"));
  CHECK_FALSE(run("https://example.com/d/c7d5c37a-d73e-4f73-9a99-c6a504a53cbd/view")
                  .has("random_code_folder"));
}

TEST_CASE("domain_in_path: another site's name as a folder") {
  Outcome o = run("http://invoicex6x4.example/directing/www.examplebank.com/EB/complete.html");
  CHECK(o.evidence["domain_in_path"] == "www.examplebank.com");
  CHECK(o.strength["domain_in_path"] == doctest::Approx(1.0));
  o = run("http://invoicex6x4.example/directing/www.atbonline.com/ATB/complete.html");
  CHECK(o.evidence["brand_in_path"] == "atbonline");
  o = run("https://sec24648.example/banks/rbsdigital.com");
  CHECK(o.evidence["domain_in_path"] == "rbsdigital.com");
  CHECK(o.strength["domain_in_path"] == doctest::Approx(0.6));
  o = run("https://madhouse.example/www.payypal.com/signin");
  CHECK(o.evidence["domain_in_path"] == "www.payypal.com");
  // The brand's official domain as a folder is brand_in_path, once.
  o = run("https://www.example.org/uploads/paypal.com/webapps/x/websrc");
  CHECK(o.evidence["brand_in_path"] == "paypal");
  CHECK_FALSE(o.has("domain_in_path"));
  for (const char* url : {
           "https://www.example.com/docs/README.md",
           "https://shop.example.de/kunden/login.do",
           "https://java.example.com/tutorial/ListOfNumbers.java",
           "https://www.example.org/sites/www.example.org/files/page.html",
           "https://github.com/someone/example.com/issues/3",
           "https://web.archive.org/web/2020/www.example.com/page.html",
           "https://www-theguardian-com.cdn.ampproject.org/c/s/www.theguardian.com/world/2024/"
           "story",
           "https://mail.example.net//jump/http://www.chyp.com",
           "https://en.wikipedia.org/wiki/Booking.com",
           "http://www.berkshireeagle.comhttp://www.berkshireeagle.com/Stories/0,1413,101,00.html",
       }) {
    CAPTURE(url);
    CHECK_FALSE(run(url).has("domain_in_path"));
  }
  // A control panel of one's own domain: weak, not flagged by itself.
  CHECK(run("https://dash.example-host.com/abc123/example.com/dns").strength["domain_in_path"] <
        0.7);
}

TEST_CASE("hosting_server_name: a rented server's automatic name") {
  Outcome o = run("http://u0673711.cp.regruhosting.ru/bank/pass.html");
  CHECK(o.evidence["hosting_server_name"] == "u0673711");
  CHECK(o.strength["hosting_server_name"] == doctest::Approx(1.0));
  o = run("serwer1989739.home.pl");
  CHECK(o.evidence["hosting_server_name"] == "serwer1989739");
  o = run("http://web2421.web02.example-webspace.de/");
  CHECK(o.evidence["hosting_server_name"] == "web2421");
  CHECK(o.strength["hosting_server_name"] == doctest::Approx(0.8));
  // Also under a hosting parent that belongs to a brand.
  o = run("http://ip-132-148-243-176.ip.secureserver.net/login");
  CHECK(o.evidence["hosting_server_name"] == "ip-132-148-243-176");
  o = run("https://host-92-27-75-224.static.example.net/");
  CHECK(o.evidence["hosting_server_name"] == "host-92-27-75-224");
  for (const char* url : {
           "https://conference2024.example.org/program",
           "https://www2.example.com/",
           "http://url1234.smallshop.com/ls/click?upn=abcdef",
           "http://em5678.smallshop.com/ls/click?upn=abcdef",
           "https://u1234567.ct.sendgrid.net/ls/click?upn=abcdef",
           "https://bobvip5511.com/",
           "https://mail2.example.co.uk/",
       }) {
    CAPTURE(url);
    CHECK_FALSE(run(url).has("hosting_server_name"));
  }
}

TEST_CASE("host keywords: hyphenated names, ordinary business words") {
  Outcome o = run("account-gb.com");
  CHECK(o.evidence["phishing_keywords_in_url"] == "account");
  CHECK(o.strength["phishing_keywords_in_url"] >= 0.89);
  o = run("https://aide-france-verification.com/");
  CHECK(o.strength["phishing_keywords_in_url"] >= 0.89);
  CHECK(run("https://nerdwallet.com/").strength["phishing_keywords_in_url"] < 0.6);
  // "accounting" is a trade, not an account.
  CHECK(run("https://smith-accounting.co.uk/").strength["phishing_keywords_in_url"] < 0.1);
  CHECK_FALSE(run("http://smith-accounting.co.uk/accounting/services").has("insecure_login_page"));
  // Other languages: Portuguese, Polish.
  CHECK(run("https://atualizacao-cadastral.com/").evidence["phishing_keywords_in_url"] ==
        "atualiz");
  CHECK(run("https://t-platnosc.eu/").evidence["phishing_keywords_in_url"] == "platnosc");
}

TEST_CASE("brands: new entries, official domains and words inside words") {
  Outcome o = run("https://allegro.pl-nowy-regulamin1243.okcbde.com.pl/15108");
  CHECK(o.evidence["brand_in_subdomain"] == "allegro");
  CHECK(run("https://allegro.pl/oferta/rower-123").evidence.empty());
  CHECK(run("https://magalu-desconto-voce.com/").evidence["brand_lookalike"] == "magalu");
  CHECK(run("https://online.simplii.example.com/").evidence["brand_in_subdomain"] == "simplii");
  CHECK(run("http://example.com/directing/Simplii/index.html").evidence["brand_in_path"] ==
        "Simplii");
  CHECK(run("https://interac-etransfer-refund.com/").evidence["brand_lookalike"] == "interac");
  for (const char* url :
       {"https://simplilearn.com/", "https://www.interaction-design.org/",
        "https://marginalrevolution.com/", "https://oricon.co.jp/", "https://wwnorton.com/",
        "https://www.hdfcbank.com/account/settings", "https://www.mercadolivre.com.br/",
        "https://www.magazineluiza.com.br/"}) {
    CAPTURE(url);
    CHECK_FALSE(run(url).has("brand_lookalike"));
  }
}

TEST_CASE("the new keys are glossary keys") {
  std::set<std::string> glossary;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  auto json = DataSource(SCAMCHECK_DATA_DIR).read("glossary.json");
  REQUIRE(json.ok());
  REQUIRE_FALSE(parser.parse(*json).get(doc));
  for (simdjson::dom::element s : doc["signals"].get_array()) {
    std::string_view k;
    REQUIRE_FALSE(s["key"].get_string().get(k));
    glossary.insert(std::string(k));
  }
  std::set<std::string> seen;
  for (const char* url :
       {"http://u0673711.cp.example.ru/wp-includes/x/9f86d081884c7d659a2feaa0c55ad015/"
        "www.examplebank.com/EB/login.php"}) {
    Outcome o = run(url);
    for (const auto& [k, v] : o.evidence) {
      CHECK_MESSAGE(glossary.count(k) == 1, k);
      seen.insert(k);
    }
  }
  for (const char* k :
       {"hijacked_site_path", "random_code_folder", "domain_in_path", "hosting_server_name"}) {
    CHECK_MESSAGE(seen.count(k) == 1, k);
  }
}
