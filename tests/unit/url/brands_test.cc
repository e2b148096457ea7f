// The brand table: data validity and the look-alike search.
#include "url/brands.h"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "data/data_source.h"
#include "url/public_suffix.h"

using namespace scamcheck::internal;

namespace {

const BrandTable& table() {
  static const std::unique_ptr<BrandTable> t = [] {
    auto loaded = BrandTable::load(DataSource(SCAMCHECK_DATA_DIR));
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().message());
    return std::move(loaded.value());
  }();
  return *t;
}

std::string brand_of(const LookalikeMatch& m) {
  return m.brand < 0 ? "" : table().brands()[static_cast<std::size_t>(m.brand)].id;
}

LookalikeMatch look(const std::string& label) {
  std::string skel;
  ascii_skeleton(label, skel);
  return table().lookalike(label, skel);
}

}  // namespace

TEST_CASE("brands.json: at least 150 brands, unique ids") {
  CHECK(table().brands().size() >= 150);
  std::set<std::string> ids;
  for (const Brand& b : table().brands()) CHECK(ids.insert(b.id).second);
}

TEST_CASE("brands.json: every official domain is its own registrable domain") {
  for (const Brand& b : table().brands()) {
    for (const std::string& d : b.domains) {
      CHECK_MESSAGE(registrable_domain(d) == d,
                    b.id << ": " << d << " -> " << registrable_domain(d));
    }
  }
}

TEST_CASE("brands.json: the required brands are there") {
  std::set<std::string> ids;
  for (const Brand& b : table().brands()) ids.insert(b.id);
  for (const char* id : {"paypal",
                         "sparkasse",
                         "volksbank",
                         "deutschebank",
                         "commerzbank",
                         "ing",
                         "dkb",
                         "n26",
                         "postbank",
                         "comdirect",
                         "consorsbank",
                         "targobank",
                         "hypovereinsbank",
                         "santander",
                         "chase",
                         "bankofamerica",
                         "wellsfargo",
                         "citi",
                         "hsbc",
                         "barclays",
                         "dhl",
                         "deutschepost",
                         "hermes",
                         "dpd",
                         "gls",
                         "ups",
                         "fedex",
                         "usps",
                         "royalmail",
                         "bzst",
                         "elster",
                         "finanzamt",
                         "bundespolizei",
                         "bka",
                         "irs",
                         "hmrc",
                         "amazon",
                         "ebay",
                         "kleinanzeigen",
                         "etsy",
                         "zalando",
                         "otto",
                         "aliexpress",
                         "klarna",
                         "visa",
                         "mastercard",
                         "amex",
                         "stripe",
                         "wise",
                         "revolut",
                         "netflix",
                         "disneyplus",
                         "spotify",
                         "primevideo",
                         "dazn",
                         "sky",
                         "telekom",
                         "vodafone",
                         "o2",
                         "1und1",
                         "att",
                         "verizon",
                         "tmobile",
                         "apple",
                         "icloud",
                         "microsoft",
                         "outlook",
                         "office365",
                         "google",
                         "gmail",
                         "facebook",
                         "instagram",
                         "whatsapp",
                         "linkedin",
                         "adobe",
                         "dropbox",
                         "docusign",
                         "steam",
                         "binance",
                         "coinbase",
                         "rakuten",
                         "smbc",
                         "mufg",
                         "mizuho",
                         "au",
                         "docomo",
                         "softbank",
                         "aeon",
                         "ekinet",
                         "saison",
                         "jcb"}) {
    CHECK_MESSAGE(ids.count(id) == 1, id);
  }
}

TEST_CASE("official domains") {
  CHECK(table().is_official("paypal.com", false));
  CHECK(table().is_official("amazon.co.jp", false));
  CHECK(table().is_official("sparkasse-hannover.de", false));             // pattern
  CHECK_FALSE(table().is_official("sparkasse-kundenservice.de", false));  // phishing word
  CHECK(table().is_official("google.com.uy", true));                      // any country TLD
  CHECK_FALSE(table().is_official("google.xyz", false));
  CHECK_FALSE(table().is_official("paypal-secure.com", false));
  CHECK(table().is_official("www.gov.uk", false));
}

TEST_CASE("the brand and category behind an official domain") {
  auto brand_of = [](std::string_view reg, bool cctld_ok) -> std::string {
    const int b = table().official_brand(reg, cctld_ok);
    return b < 0 ? "" : table().brands()[static_cast<std::size_t>(b)].id;
  };
  CHECK(brand_of("paypal.com", false) == "paypal");
  CHECK(table()
            .brands()[static_cast<std::size_t>(table().official_brand("paypal.com", false))]
            .category == "payment");
  CHECK_FALSE(brand_of("sparkasse-hannover.de", false).empty());  // pattern
  CHECK(brand_of("google.com.uy", true) == "google");             // any country TLD
  CHECK(brand_of("google.com.uy", false).empty());
  CHECK(brand_of("paypal-secure.com", false).empty());
  CHECK(brand_of("", true).empty());
}

TEST_CASE("look-alikes: the brand inside the label") {
  auto m = look("paypal-secure");
  CHECK(m.kind == LookalikeKind::kContainsBrand);
  CHECK(brand_of(m) == "paypal");
  CHECK(m.pos == 0);
  CHECK(m.len == 6);
  CHECK(brand_of(look("secure-deutsche-bank")) == "deutschebank");
  CHECK(look("dhl-paket").kind == LookalikeKind::kContainsBrand);
  // Ambiguous short names only as a part of a longer label.
  CHECK(look("au").kind == LookalikeKind::kNone);
  CHECK(brand_of(look("au-login")) == "au");
  CHECK(look("sky").kind == LookalikeKind::kNone);
  CHECK(look("ing").kind == LookalikeKind::kNone);
  CHECK(look("online").kind == LookalikeKind::kNone);
  // Short tokens (up to 5 letters) only where a word starts: "fluxbox" is
  // no Xbox, "shagmail" no Gmail; "xbox-live", "gmail-verify" and
  // "secure-ebay" are.
  CHECK(look("fluxbox").kind == LookalikeKind::kNone);
  CHECK(look("shagmail").kind == LookalikeKind::kNone);
  CHECK(brand_of(look("xbox-live")) == "microsoft");
  CHECK(brand_of(look("gmail-verify")) == "gmail");
  CHECK(brand_of(look("secure-ebay")) == "ebay");
  // Longer tokens still count inside a word.
  CHECK(brand_of(look("securepaypal")) == "paypal");
}

TEST_CASE("look-alikes: homoglyphs and digit swaps") {
  CHECK(look("paypa1").kind == LookalikeKind::kHomoglyph);
  CHECK(brand_of(look("paypa1")) == "paypal");
  CHECK(brand_of(look("arnazon")) == "amazon");  // rn -> m
  CHECK(brand_of(look("rnicrosoft")) == "microsoft");
  CHECK(brand_of(look("g00gle")) == "google");
  CHECK(brand_of(look("paypai")) == "paypal");  // i for l
  CHECK(brand_of(look("netfl1x-login")) == "netflix");
  // Unicode: the caller passes the confusable skeleton.
  CHECK(brand_of(table().lookalike("pаypal", "paypal")) == "paypal");
}

TEST_CASE("look-alikes: typos") {
  CHECK(look("paypall").kind == LookalikeKind::kContainsBrand);  // "paypal" + "l"
  CHECK(look("paypaI").kind != LookalikeKind::kNone);
  CHECK(look("pyapal").kind == LookalikeKind::kTypo);
  CHECK(brand_of(look("paypall")) == "paypal");
  CHECK(brand_of(look("netfilx")) == "netflix");  // swapped letters
  CHECK(brand_of(look("amazom")) == "amazon");
  CHECK(brand_of(look("commerzbnak")) == "commerzbank");
  CHECK(brand_of(look("paypa")) == "paypal");  // cut short
  CHECK(brand_of(look("netfilxmobile")) == "netflix");
  // Ordinary words one letter from a short brand are not look-alikes.
  CHECK(look("apply").kind == LookalikeKind::kNone);
  CHECK(look("chose").kind == LookalikeKind::kNone);
  CHECK(look("stream").kind == LookalikeKind::kNone);
  CHECK(look("mindmeister").kind == LookalikeKind::kNone);
  CHECK(look("farnell").kind == LookalikeKind::kNone);
  CHECK(look("globalcloudteam").kind == LookalikeKind::kNone);
}

TEST_CASE("mentions in text") {
  std::vector<BrandTable::Mention> m;
  table().find_mentions("/wellsfargo/login.php", false, m);
  REQUIRE(m.size() >= 1);
  CHECK(table().brands()[static_cast<std::size_t>(m[0].brand)].id == "wellsfargo");
  m.clear();
  table().find_mentions("/news/sky-is-blue", false, m);  // host word: not in paths
  CHECK(m.empty());
  m.clear();
  table().find_mentions("dhl24", true, m);
  CHECK(m.size() == 1);
}

TEST_CASE("brand names for the confusable-word check") {
  const auto& names = table().names();
  CHECK(names.size() > 100);
  std::set<std::string> s(names.begin(), names.end());
  CHECK(s.count("paypal") == 1);
  CHECK(s.count("sparkasse") == 1);
  CHECK(s.count("au") == 0);
}

TEST_CASE("bad brand files are refused with a message") {
  auto r =
      BrandTable::load(R"({"version":1,"brands":[{"id":"x","name":"X","domains":[]}]})", "t.json");
  CHECK_FALSE(r.ok());
  r = BrandTable::load(
      R"({"version":1,"brands":[{"id":"x","name":"X","domains":["x.com"],"tokens":["A!"]}]})",
      "t.json");
  CHECK_FALSE(r.ok());
  r = BrandTable::load(R"({"version":2,"brands":[]})", "t.json");
  CHECK_FALSE(r.ok());
  r = BrandTable::load("not json", "t.json");
  CHECK_FALSE(r.ok());
}

TEST_CASE("edit distance") {
  CHECK(edit_distance("paypal", "paypal", 2) == 0);
  CHECK(edit_distance("paypal", "paypla", 2) == 1);
  CHECK(edit_distance("paypal", "pypal", 2) == 1);
  CHECK(edit_distance("kitten", "sitting", 3) == 3);
  CHECK(edit_distance("abc", "xyzxyz", 1) == 2);  // stops early above the limit
}

TEST_CASE("brands of an open platform category are marked open_platform") {
  std::set<std::string> open;
  for (const Brand& b : table().brands()) {
    CHECK(b.open_platform == (b.category == "tech" || b.category == "social"));
    if (b.open_platform) open.insert(b.id);
  }
  CHECK(open.count("google") == 1);
  CHECK(open.count("facebook") == 1);
  CHECK(open.count("paypal") == 0);
}

TEST_CASE("open_platform_categories is required and an array of strings") {
  constexpr std::string_view kBrand = R"({"id":"x","name":"X","category":"c","domains":["x.com"]})";
  auto with = [&](std::string_view field) {
    return BrandTable::load(
        "{\"version\":1," + std::string(field) + "\"brands\":[" + std::string(kBrand) + "]}",
        "t.json");
  };
  auto ok = with(R"("open_platform_categories":["c"],)");
  REQUIRE_MESSAGE(ok.ok(), ok.status().message());
  CHECK((*ok)->brands().front().open_platform);
  CHECK_FALSE(with(R"("open_platform_categories":[],)").value()->brands().front().open_platform);
  auto missing = with("");
  CHECK(missing.status().message().find("open_platform_categories") != std::string::npos);
  CHECK_FALSE(with(R"("open_platform_categories":"c",)").ok());
  CHECK_FALSE(with(R"("open_platform_categories":[1],)").ok());
}

TEST_CASE("look-alike answers are remembered per table, not across tables") {
  // Two tables, one after the other, possibly at the same address: each
  // answers from its own brands, however often a label is asked.
  const char* kAcme =
      R"({"version":1,"open_platform_categories":[],"brands":[{"id":"acme","name":"Acme",)"
      R"("domains":["acme.com"],"tokens":["acmebank"]}]})";
  const char* kOther =
      R"({"version":1,"open_platform_categories":[],"brands":[{"id":"other","name":"Other",)"
      R"("domains":["other.com"],"tokens":["otherco"]}]})";
  for (int round = 0; round < 3; ++round) {
    {
      auto t = BrandTable::load(kAcme, "acme.json");
      REQUIRE_MESSAGE(t.ok(), t.status().message());
      for (int i = 0; i < 2; ++i) {
        CHECK((*t)->lookalike("acmebank-login", "acmebank-login").kind ==
              LookalikeKind::kContainsBrand);
        CHECK((*t)->lookalike("otherco-login", "otherco-login").kind == LookalikeKind::kNone);
      }
    }
    {
      auto t = BrandTable::load(kOther, "other.json");
      REQUIRE_MESSAGE(t.ok(), t.status().message());
      for (int i = 0; i < 2; ++i) {
        CHECK((*t)->lookalike("acmebank-login", "acmebank-login").kind == LookalikeKind::kNone);
        CHECK((*t)->lookalike("otherco-login", "otherco-login").kind ==
              LookalikeKind::kContainsBrand);
      }
    }
  }
  // More distinct labels than the memo holds: the answers stay right.
  for (int i = 0; i < 5000; ++i) {
    const std::string label = "word" + std::to_string(i);
    const LookalikeMatch first = look(label);
    const LookalikeMatch again = look(label);
    CHECK((first.kind == again.kind && first.brand == again.brand && first.pos == again.pos &&
           first.len == again.len));
  }
  CHECK(brand_of(look("paypal-secure")) == "paypal");
  CHECK(brand_of(look("pyapal")) == "paypal");
}

TEST_CASE("typo look-alikes: the nearest brand, the first listed among equals") {
  // "bankingzy" is one edit from both brands' names: "second"'s shorter
  // name is checked first (targets are grouped by length), yet the first
  // listed wins, as in list order.
  const char* kTwo =
      R"({"version":1,"open_platform_categories":[],"brands":[)"
      R"({"id":"first","name":"First","domains":["first.com"],"tokens":["bankingzyq"]},)"
      R"({"id":"second","name":"Second","domains":["second.com"],"tokens":["bankngzy"]}]})";
  auto t = BrandTable::load(kTwo, "two.json");
  REQUIRE_MESSAGE(t.ok(), t.status().message());
  auto look2 = [&](const std::string& label) {
    std::string skel;
    ascii_skeleton(label, skel);
    return (*t)->lookalike(label, skel);
  };
  auto id = [&](const LookalikeMatch& m) {
    return m.brand < 0 ? std::string() : (*t)->brands()[static_cast<std::size_t>(m.brand)].id;
  };
  LookalikeMatch m = look2("bankingzy");
  CHECK(m.kind == LookalikeKind::kTypo);
  CHECK(id(m) == "first");
  // Nearer wins over earlier: one edit from "second" only.
  CHECK(id(look2("bankngz")) == "second");
  // Two edits count only for names of 12 letters or more.
  CHECK(look2("bxnkingzyqq").kind == LookalikeKind::kNone);
}

TEST_CASE("typo look-alikes survive the letter-set test") {
  // Each edit kind, with the changed letter new to the name or not.
  CHECK(brand_of(look("commerzbnak")) == "commerzbank");        // swap: same letters
  CHECK(brand_of(look("commerzbamk")) == "commerzbank");        // m for n: m is new
  CHECK(brand_of(look("commerzbak")) == "commerzbank");         // a letter dropped
  CHECK(brand_of(look("commerzbanjk")) == "commerzbank");       // one added
  CHECK(brand_of(look("deutshebamk")) == "deutschebank");       // two edits, 12 letters
  CHECK(brand_of(look("commerzbnakonline")) == "commerzbank");  // glued to a word
  CHECK(look("commerzxyzk").kind == LookalikeKind::kNone);
}

TEST_CASE("substring index: every occurrence, none cut off at the end") {
  SubstringIndex idx;
  idx.add("pay", 1);
  idx.add("paypal", 2);
  idx.add("payee", 3);
  idx.add("palm", 4);
  std::vector<SubstringIndex::Hit> hits;
  idx.find_all("paypalpaypa", hits);  // the last "paypa" is no "paypal"
  std::vector<std::tuple<std::size_t, std::size_t, int>> got;
  for (const auto& h : hits) got.emplace_back(h.pos, h.len, h.id);
  CHECK(got ==
        std::vector<std::tuple<std::size_t, std::size_t, int>>{{0, 3, 1}, {0, 6, 2}, {6, 3, 1}});
  hits.clear();
  idx.find_all("pa", hits);
  idx.find_all("payepalmpaz", hits);  // "pay" and "palm"; "paz" differs in its third byte
  REQUIRE(hits.size() == 2);
  CHECK(hits[0].id == 1);
  CHECK(hits[1].pos == 4);
  CHECK(hits[1].id == 4);
}
