// The URL stage's data files: documented, well-formed, consistent.
#include "url/url_lists.h"

#include <doctest/doctest.h>
#include <simdjson.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "url/public_suffix.h"
#include "url/url_checks.h"

using namespace scamcheck::internal;

namespace {

const char* const kTextLists[] = {"lists/risky_tlds.txt",
                                  "lists/shorteners.txt",
                                  "lists/free_hosting.txt",
                                  "lists/brand_mention_sites.txt",
                                  "lists/url_keywords.txt",
                                  "lists/rare_bigrams.txt",
                                  "lists/site_asset_folders.txt",
                                  "lists/phishing_wildcard_words.txt",
                                  "lists/word_tlds.txt",
                                  "lists/file_extension_tlds.txt",
                                  "lists/click_tracker_labels.txt",
                                  "lists/second_level_labels.txt"};

std::string read(const char* path) {
  auto r = DataSource(SCAMCHECK_DATA_DIR).read(path);
  REQUIRE_MESSAGE(r.ok(), path);
  return *r;
}

}  // namespace

TEST_CASE("every list opens with a description of its format and how to override it") {
  for (const char* path : kTextLists) {
    std::string text = read(path);
    CAPTURE(path);
    CHECK(text.rfind("# ", 0) == 0);
    CHECK(text.find("Format:") != std::string::npos);
    CHECK(text.find("Override:") != std::string::npos);
  }
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string json = read("lists/brands.json");
  REQUIRE_FALSE(parser.parse(json).get(doc));
  int64_t version = 0;
  CHECK_FALSE(doc["version"].get_int64().get(version));
  CHECK(version == 1);
  std::string_view description;
  CHECK_FALSE(doc["description"].get_string().get(description));
  CHECK(description.find("Override") != std::string_view::npos);
}

TEST_CASE("the lists load") {
  auto lists = UrlLists::load(DataSource(SCAMCHECK_DATA_DIR));
  REQUIRE_MESSAGE(lists.ok(), lists.status().to_string());
  CHECK(lists->risky_tlds.size() > 20);
  CHECK(lists->shorteners.count("bit.ly") == 1);
  CHECK(lists->free_hosting.count("000webhostapp.com") == 1);
  CHECK(lists->mention_sites.count("google.*") == 1);
  CHECK(lists->keywords.size() > 20);
  for (const auto& [tld, strength] : lists->risky_tlds) {
    CHECK_MESSAGE(is_known_tld(tld), tld);
    CHECK(strength > 0);
    CHECK(strength <= 1.0);
  }
  // Popular TLDs must never be on the risky list.
  for (const char* tld : {"com", "de", "org", "net", "uk", "jp", "fr", "it", "eu", "io", "app"}) {
    CHECK_MESSAGE(lists->risky_tlds.count(tld) == 0, tld);
  }
  for (const auto& [host, s] : lists->shorteners) {
    CHECK_MESSAGE(host.find('.') != std::string::npos, host);
  }
  for (const auto& [parent, s] : lists->free_hosting) {
    CHECK_MESSAGE(parent.find('.') != std::string::npos, parent);
  }
  CHECK(std::find(lists->asset_folders.begin(), lists->asset_folders.end(), "images") !=
        lists->asset_folders.end());
}

TEST_CASE("plain word lists: one lower-case entry per line, none twice") {
  for (const char* path : {"lists/site_asset_folders.txt", "lists/phishing_wildcard_words.txt",
                           "lists/word_tlds.txt", "lists/file_extension_tlds.txt",
                           "lists/click_tracker_labels.txt", "lists/second_level_labels.txt"}) {
    CAPTURE(path);
    std::vector<std::string> entries = parse_list(read(path));
    CHECK(entries.size() >= 5);
    std::set<std::string> seen;
    for (const std::string& e : entries) {
      CHECK_MESSAGE(seen.insert(e).second, e);
      for (char c : e) CHECK_MESSAGE(((c >= 'a' && c <= 'z') || c == '-'), e);
    }
  }
}

TEST_CASE("weighted list lines") {
  std::string problems;
  auto entries = parse_weighted_list("# c\nTop 0.5\nxyz\nfoo 9\nlogin login host\n", "t", problems);
  REQUIRE(entries.size() == 4);
  CHECK(entries[0].entry == "top");
  CHECK(entries[0].strength == doctest::Approx(0.5));
  CHECK(entries[1].strength == doctest::Approx(1.0));
  CHECK(entries[3].tags.size() == 2);
  CHECK(problems.find("foo") != std::string::npos);  // strength out of range
}

TEST_CASE("randomness of host labels") {
  auto lists = UrlLists::load(DataSource(SCAMCHECK_DATA_DIR));
  REQUIRE(lists.ok());
  auto brands = BrandTable::load(DataSource(SCAMCHECK_DATA_DIR));
  REQUIRE(brands.ok());
  auto checker = UrlChecker::create(std::move(brands.value()), std::move(lists.value()));
  REQUIRE(checker.ok());
  const UrlChecker& c = **checker;
  for (const char* word : {"wikipedia", "sueddeutsche", "example", "shop", "amazon", "zeitung",
                           "stackoverflow", "weather", "tagesschau", "bundesregierung"}) {
    CHECK_MESSAGE(c.randomness(word) < 0.5, word);
  }
  for (const char* random : {"xazjqcjc", "qmveqmp", "8fa1215e869ecf822bb1f0739a01a7b0"}) {
    CHECK_MESSAGE(c.randomness(random) >= 2.0, random);
  }
  CHECK(c.randomness("d8v1y1x") >= 1.0);
}

TEST_CASE("a URL checked again gets the same answer, from its own checker only") {
  auto lists = UrlLists::load(DataSource(SCAMCHECK_DATA_DIR));
  REQUIRE(lists.ok());
  const UrlLists lists_copy = lists.value();
  auto full = UrlChecker::create(
      std::move(BrandTable::load(DataSource(SCAMCHECK_DATA_DIR)).value()), lists.value());
  REQUIRE(full.ok());
  // A second checker whose only brand is "acmebank": PayPal means nothing to it.
  auto acme_brands = BrandTable::load(
      R"({"version":1,"open_platform_categories":[],"brands":[{"id":"acme","name":"Acme",)"
      R"("domains":["acmebank.com"],"tokens":["acmebank"]}]})",
      "acme.json");
  REQUIRE_MESSAGE(acme_brands.ok(), acme_brands.status().message());
  auto acme = UrlChecker::create(std::move(acme_brands.value()), lists_copy);
  REQUIRE(acme.ok());
  const std::string url = "http://paypal-secure.example.top/login";
  ParsedUrl p;
  REQUIRE(parse_url(url, p));
  auto keys = [&](const UrlChecker& c, std::string& registrable) {
    std::vector<UrlSignal> out;
    c.check(url, p, out, registrable);
    std::string k;
    for (const UrlSignal& s : out) {
      k += std::string(s.key) + "@" + std::to_string(s.range.start) + "-" +
           std::to_string(s.range.end) + ";";
    }
    return k;
  };
  std::string reg_full, reg_acme, again;
  const std::string first = keys(**full, reg_full);
  CHECK(first.find("brand_in_subdomain") != std::string::npos);
  CHECK(reg_full == "example.top");
  for (int i = 0; i < 3; ++i) {
    CHECK(keys(**full, again) == first);
    CHECK(again == reg_full);
    const std::string other = keys(**acme, reg_acme);
    CHECK(other.find("brand_in_subdomain") == std::string::npos);
    CHECK(reg_acme == "example.top");
  }
  // More distinct URLs than the memo holds, then the first again.
  for (int i = 0; i < 1500; ++i) {
    const std::string u = "http://www.site" + std::to_string(i) + ".top/";
    ParsedUrl q;
    REQUIRE(parse_url(u, q));
    std::vector<UrlSignal> out;
    std::string r;
    (*full)->check(u, q, out, r);
    CHECK(r == "site" + std::to_string(i) + ".top");
  }
  CHECK(keys(**full, again) == first);
  // A long URL is checked afresh each time, with the same answer.
  const std::string long_url = "http://paypal-secure.example.top/" + std::string(1000, 'a');
  ParsedUrl lp;
  REQUIRE(parse_url(long_url, lp));
  std::vector<UrlSignal> once, twice;
  std::string r1, r2;
  (*full)->check(long_url, lp, once, r1);
  (*full)->check(long_url, lp, twice, r2);
  REQUIRE(once.size() == twice.size());
  CHECK(!once.empty());
  for (std::size_t i = 0; i < once.size(); ++i) {
    CHECK(once[i].key == twice[i].key);
    CHECK(once[i].range.start == twice[i].range.start);
    CHECK(once[i].range.end == twice[i].range.end);
  }
  CHECK(r1 == r2);
}
