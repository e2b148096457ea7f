// URL analysis end to end: link in text -> findings whose evidence is the
// verbatim part of the text that caused them.
#include "url/url_analyzer.h"

#include <doctest/doctest.h>
#include <simdjson.h>

#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "data/data_source.h"
#include "extract/links.h"
#include "url/url_input.h"
#include "url_test_support.h"

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

using testing::Outcome;

const UrlAnalyzer& analyzer() { return testing::url_analyzer(); }

// Extracts the links of `text` and analyzes each.
Outcome run(const std::string& text) {
  Outcome o;
  for (const LinkMatch& m : extract_links(text)) testing::analyze_link(text, m, o);
  return o;
}

// Analyzes `content` as kind "url".
Outcome run_url(const std::string& content) {
  Outcome o;
  testing::analyze_link(content, link_for_url_input(content), o);
  return o;
}

}  // namespace

TEST_CASE("official brand domains are not suspicious by themselves") {
  for (const char* text :
       {"https://www.paypal.com/signin", "https://meine.deutsche-bank.de/login",
        "https://www.sparkasse-hannover.de/de/home/onlinebanking.html",
        "https://www.amazon.co.jp/gp/css/order-history", "https://accounts.google.com/signin/v2",
        "https://login.microsoftonline.com/common/oauth2",
        "https://www.dhl.de/de/privatkunden.html", "https://www.google.com/search?q=paypal+login",
        "https://www.elster.de/eportal/login",
        "https://www.gov.uk/log-in-register-hmrc-online-services", "https://www.google.com.uy/"}) {
    Outcome o = run(text);
    CAPTURE(text);
    CHECK(o.evidence.empty());
  }
}

TEST_CASE("UrlInfo") {
  Outcome o = run("Go to https://WWW.Example.co.uk/x now");
  REQUIRE(o.infos.size() == 1);
  CHECK(o.infos[0].url == "https://WWW.Example.co.uk/x");
  CHECK(o.infos[0].host == "www.example.co.uk");
  CHECK(o.infos[0].registrable_domain == "example.co.uk");
  o = run("http://münchen.de");
  CHECK(o.infos[0].host == "xn--mnchen-3ya.de");
  CHECK(o.infos[0].registrable_domain == "xn--mnchen-3ya.de");
  o = run("http://185.23.4.5/x");
  CHECK(o.infos[0].host == "185.23.4.5");
  CHECK(o.infos[0].registrable_domain.empty());
  o = run("paypal.com");
  CHECK(o.infos[0].url == "http://paypal.com");
}

TEST_CASE("brand_in_subdomain") {
  Outcome o = run("Bitte: https://paypal.com.secure-login.xyz/ jetzt");
  CHECK(o.evidence["brand_in_subdomain"] == "paypal");
  CHECK(o.evidence["risky_tld"] == ".xyz");
  CHECK(o.has("phishing_keywords_in_url"));
  CHECK(o.has("obfuscated_url"));  // "paypal.com." reads as another host
  o = run("apple-id.verify-account.com/signin");
  CHECK(o.evidence["brand_in_subdomain"] == "apple-id");
  o = run("https://rakuten.co.jp.6d1d7585c8.info/");
  CHECK(o.evidence["brand_in_subdomain"] == "rakuten");
  o = run("https://www.amazon.co.jp.example.com/");
  CHECK(o.evidence["brand_in_subdomain"] == "amazon");
}

TEST_CASE("brand_lookalike") {
  Outcome o = run("Konto gesperrt: https://paypa1.com/login");
  CHECK(o.evidence["brand_lookalike"] == "paypa1.com");
  o = run("https://xn--pypal-4ve.com/");
  CHECK(o.evidence["brand_lookalike"] == "xn--pypal-4ve.com");
  CHECK(o.evidence["punycode_domain"] == "xn--pypal-4ve.com");
  o = run("https://pаypal.com/");  // Cyrillic а, written as Unicode
  CHECK(o.evidence["brand_lookalike"] == "pаypal.com");
  CHECK(o.evidence["punycode_domain"] == "pаypal.com");
  CHECK(o.strength["punycode_domain"] == doctest::Approx(1.0));
  o = run("visit secure-paypal-verify.com now");
  CHECK(o.evidence["brand_lookalike"] == "paypal");
  o = run("https://sparkasse-kundenservice.de/");
  CHECK(o.evidence["brand_lookalike"] == "sparkasse");
  o = run("https://arnazon.de/");
  CHECK(o.evidence["brand_lookalike"] == "arnazon.de");
  o = run("https://paypal.example-login.web.app/");  // private suffix: label is user-chosen
  CHECK(o.has("brand_in_subdomain"));
  o = run("https://paypal-login.web.app/");
  CHECK(o.evidence["brand_lookalike"] == "paypal");
}

TEST_CASE("brand_in_path") {
  Outcome o = run("http://shop-example.de/wellsfargo/login.php");
  CHECK(o.evidence["brand_in_path"] == "wellsfargo");
  CHECK(o.has("insecure_login_page"));
  o = run("https://www.google.com/search?q=paypal");
  CHECK_FALSE(o.has("brand_in_path"));
  o = run("https://www.youtube.com/results?search_query=netflix");
  CHECK_FALSE(o.has("brand_in_path"));
  // A brand in a long article slug is weak.
  o = run("https://news-site.com/2024/05/paypal-announces-new-fees-for-sellers");
  CHECK(o.has("brand_in_path"));
  CHECK(o.strength["brand_in_path"] < 0.5);
}

TEST_CASE("brand_in_path: whole words, official domains as directories") {
  CHECK_FALSE(run("https://lists.example.net/listinfo/sitescooper-talk").has("brand_in_path"));
  CHECK_FALSE(run("https://www.example.org/interactive/map").has("brand_in_path"));
  CHECK(run("https://www.example.org/uploads/paypal.com/webapps/x/websrc")
            .evidence["brand_in_path"] == "paypal");
  CHECK(run("https://www.example.org/paypallogin/index.php").evidence["brand_in_path"] == "paypal");
  // A redirect to the brand's own site is not an impersonation.
  CHECK_FALSE(
      run("https://tracker.example.com/click?u=http://www.apple.com/uk/").has("brand_in_path"));
  // So is one written into a mailing service's click-tracker path after a
  // scheme; the official domain as a plain folder still is one.
  CHECK_FALSE(run("http://www.clicks.example.com/mm/Click/2644/x9Z.Nj/*http://www.tesco.ie/offers")
                  .has("brand_in_path"));
  CHECK(run("http://www.clicks.example.com/mm/tesco.ie/offers").has("brand_in_path"));
  // Brand names glued to keywords inside host labels.
  Outcome o = run("https://secureappleverification.example-host.com/x");
  CHECK(o.evidence["brand_in_subdomain"] == "apple");
  o = run("https://wwwapple.inc.example.cn/");
  CHECK(o.evidence["brand_in_subdomain"] == "apple");
}

TEST_CASE("ip_address_host and obfuscated forms") {
  Outcome o = run("http://185.23.4.5/paypal/");
  CHECK(o.evidence["ip_address_host"] == "185.23.4.5");
  CHECK(o.evidence["brand_in_path"] == "paypal");
  o = run("http://0xb9.0x17.4.5/x");
  CHECK(o.evidence["ip_address_host"] == "0xb9.0x17.4.5");
  CHECK(o.evidence["obfuscated_url"] == "0xb9.0x17.4.5");
  o = run("http://3105293317/x");
  CHECK(o.evidence["ip_address_host"] == "3105293317");
  CHECK(o.has("obfuscated_url"));
  o = run("http://[2001:db8::1]/login");
  CHECK(o.evidence["ip_address_host"] == "[2001:db8::1]");
}

TEST_CASE("obfuscated_url: a percent-encoded host, unless it decodes to no host name at all") {
  Outcome o = run("http://%70%61ypal.example.com/login");
  CHECK(o.has("obfuscated_url"));
  // A mangled address ("{name} {at} {cpan.org}") is no working link.
  o = run("http://%7Bsburke%7D%20%7Bat%7D%20%7Bcpan.org%7D");
  CHECK_FALSE(o.has("obfuscated_url"));
}

TEST_CASE("userinfo_trick") {
  Outcome o = run("https://paypal.com@evil-site.top/login");
  CHECK(o.evidence["userinfo_trick"] == "paypal.com");
  CHECK(o.strength["userinfo_trick"] == doctest::Approx(1.0));
  CHECK(o.infos[0].host == "evil-site.top");
  o = run("http://a@b@evil-site.com/x");
  CHECK(o.evidence["userinfo_trick"] == "a@b");
  CHECK(o.evidence["obfuscated_url"] == "a@b@evil-site.com");
}

TEST_CASE("url_shortener, risky_tld, many_subdomains, nonstandard_port") {
  CHECK(run("Paket: bit.ly/3abcD").evidence["url_shortener"] == "bit.ly");
  CHECK(run("https://fancy-shop.top/").evidence["risky_tld"] == ".top");
  CHECK(run("https://a.b.c.d.example.com/").evidence["many_subdomains"] == "a.b.c.d");
  CHECK_FALSE(run("https://www.a.b.example.com/").has("many_subdomains"));
  CHECK(run("http://example.com:8080/x").evidence["nonstandard_port"] == "8080");
  CHECK_FALSE(run("https://example.com:443/x").has("nonstandard_port"));
  // Popular TLDs are not risky; .cn is only mildly so.
  CHECK_FALSE(run("https://example.com/").has("risky_tld"));
  CHECK(run("https://example.cn/").strength["risky_tld"] < 1.0);
}

TEST_CASE("insecure_login_page") {
  Outcome o = run("http://example.com/account/login.php");
  CHECK(o.evidence["insecure_login_page"] == "http://example.com/account/login.php");
  CHECK_FALSE(run("https://example.com/account/login.php").has("insecure_login_page"));
  CHECK_FALSE(run("http://example.com/blog/post").has("insecure_login_page"));
  CHECK_FALSE(run("http://example.com/library/accounts/kids.jpg").has("insecure_login_page"));
}

TEST_CASE("script_url") {
  CHECK(run("click javascript:alert(1)").evidence["script_url"] == "javascript:");
  CHECK(run("data:text/html;base64,PHNjcmlwdD4=").evidence["script_url"] == "data:");
  CHECK(run_url("vbscript:msgbox(1)").evidence["script_url"] == "vbscript:");
}

TEST_CASE("free_hosting") {
  Outcome o = run("https://paypal-login.000webhostapp.com/index.php");
  CHECK(o.evidence["free_hosting"] == "paypal-login.000webhostapp.com");
  CHECK(o.evidence["brand_in_subdomain"] == "paypal");
  CHECK(run("https://abc123.duckdns.org/").has("free_hosting"));
  CHECK(run("https://odd-recipe-5f03.someone.workers.dev/").has("free_hosting"));
  CHECK_FALSE(run("https://www.weebly.com/").has("free_hosting"));
  CHECK_FALSE(run("https://weebly.com/").has("free_hosting"));
  // A hosting parent owned by a brand still hosts other people's pages.
  o = run("https://contoso-my.sharepoint.com/personal/x");
  CHECK(o.has("free_hosting"));
}

TEST_CASE("free_hosting: content on IPFS through any gateway") {
  const std::string v1 = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi";
  const std::string v0 = "QmXoypizjW3WknFiJnKLwHCnL72vedxjQkDDP1mXWo6uco";
  CHECK(run("https://gw.example.net/ipfs/" + v1 + "/index.html").evidence["free_hosting"] ==
        "/ipfs/" + v1);
  CHECK(run("https://gw.example.net/ipfs/" + v0).evidence["free_hosting"] == "/ipfs/" + v0);
  CHECK(run("https://gw.example.net/ipns/k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonz/")
            .has("free_hosting"));
  CHECK(run("https://" + v1 + ".ipfs.gw.example.net/login.html").evidence["free_hosting"] == v1);
  // A site's own name published by IPNS, a folder named ipfs, a short id.
  CHECK_FALSE(run("https://gw.example.net/ipns/docs.example.org/").has("free_hosting"));
  CHECK_FALSE(run("https://example.com/ipfs/intro").has("free_hosting"));
  CHECK_FALSE(run("https://example.com/docs/ipfs/" + v1).has("free_hosting"));
  CHECK_FALSE(run("https://gw.example.net/ipfs/Qm123").has("free_hosting"));
}

TEST_CASE("phishing_keywords_in_url") {
  Outcome o = run("https://secure-login-verify.com/");
  CHECK(o.has("phishing_keywords_in_url"));
  CHECK(o.strength["phishing_keywords_in_url"] >= 0.9);
  // One /login on an ordinary site is weak.
  o = run("https://example.com/login");
  CHECK(o.evidence["phishing_keywords_in_url"] == "login");
  CHECK(o.strength["phishing_keywords_in_url"] < 0.5);
  // A victim's address pre-filled into the query counts too.
  o = run("https://example.com/x/index.php?email=jane@example.org");
  CHECK(o.evidence["phishing_keywords_in_url"] == "jane@example.org");
}

TEST_CASE("random_domain") {
  Outcome o = run("https://xazjqcjc.com/utzwvnsp");
  CHECK(o.evidence["random_domain"] == "xazjqcjc");
  CHECK(o.strength["random_domain"] > 2.0);
  CHECK_FALSE(run("https://www.wikipedia.org/").has("random_domain"));
  CHECK_FALSE(run("https://www.sueddeutsche.de/").has("random_domain"));
  // 'y' after a consonant is a vowel.
  CHECK_FALSE(run("https://www.python.org/").has("random_domain"));
}

TEST_CASE("obfuscated_url") {
  Outcome o = run("http://%70aypal.com/");
  CHECK(o.evidence["obfuscated_url"] == "%70aypal.com");
  o = run("https://example.com/%6c%6f%67%69%6e/%70%61%79");
  CHECK(o.has("obfuscated_url"));
}

TEST_CASE("defanged links map evidence back to the written text") {
  std::string text = "Bitte nicht: hxxps://paypal-secure[.]top/login danke";
  Outcome o = run(text);
  CHECK(o.evidence["defanged_link"] == "hxxps");
  CHECK(o.evidence["risky_tld"] == "[.]top");
  CHECK(o.evidence["brand_lookalike"] == "paypal");
  CHECK(o.infos[0].url == "https://paypal-secure.top/login");
  o = run("evil(dot)example(dot)xyz/login");
  CHECK(o.evidence["defanged_link"] == "(dot)");
  CHECK(o.evidence["risky_tld"] == "(dot)xyz");
}

TEST_CASE("kind url content") {
  Outcome o = run_url("  paypa1.com/login  ");
  CHECK(o.evidence["brand_lookalike"] == "paypa1.com");
  CHECK(o.infos[0].url == "http://paypa1.com/login");
  // A caller-built LinkMatch whose url is not a refanging of the text:
  // evidence is found verbatim or falls back to the whole link.
  std::string text = "look: https://paypa1.com/x";
  LinkMatch m;
  m.start = 6;
  m.end = text.size();
  m.url = "https://paypa1.com/x";
  m.had_scheme = true;
  Findings fs;
  UrlInfo info;
  analyzer().analyze(text, m, fs, info);
  REQUIRE_FALSE(fs.empty());
  for (const Finding& f : fs) CHECK(text.substr(f.start, f.end - f.start) == "paypa1.com");
}

TEST_CASE("only glossary keys are emitted") {
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
  std::string text =
      "https://paypal.com.secure-login.xyz/ paypa1.com xn--pypal-4ve.com http://0x7f.1/login "
      "https://a@b@x.top:8080/ bit.ly/x javascript:alert(1) hxxp://x[.]duckdns.org/verify "
      "https://a.b.c.d.xazjqcjc.cn/wellsfargo/signin?email=a@b.de http://%70aypal.com";
  for (const LinkMatch& m : extract_links(text)) {
    Findings fs;
    UrlInfo info;
    analyzer().analyze(text, m, fs, info);
    for (const Finding& f : fs) CHECK_MESSAGE(glossary.count(f.key) == 1, f.key);
  }
}

TEST_CASE("the embedded data pack loads too") {
  auto loaded = UrlAnalyzer::load(DataSource(""));
  REQUIRE_MESSAGE(loaded.ok(), loaded.status().to_string());
  CHECK((*loaded)->brand_names().size() > 100);
}

TEST_CASE("a missing data directory is an error, not a crash") {
  auto loaded = UrlAnalyzer::load(DataSource("/nonexistent/dir"));
  CHECK_FALSE(loaded.ok());
}

TEST_CASE("one analyzer, many threads") {
  std::vector<std::string> texts = {"https://paypal.com.secure-login.xyz/",
                                    "https://paypa1.com/login",
                                    "bit.ly/abc",
                                    "https://www.paypal.com/signin",
                                    "http://185.23.4.5/paypal/",
                                    "https://xn--pypal-4ve.com/"};
  std::vector<size_t> expected;
  for (const auto& t : texts) expected.push_back(run(t).evidence.size());
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int k = 0; k < 4; ++k) {
    threads.emplace_back([&, k] {
      for (int rep = 0; rep < 200; ++rep) {
        for (std::size_t i = 0; i < texts.size(); ++i) {
          std::set<std::string> keys;
          for (const LinkMatch& m : extract_links(texts[i])) {
            Findings fs;
            UrlInfo info;
            analyzer().analyze(texts[i], m, fs, info);
            for (const Finding& f : fs) keys.insert(f.key);
          }
          if (keys.size() != expected[i]) ++mismatches[static_cast<std::size_t>(k)];
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int m : mismatches) CHECK(m == 0);
}
