#include "model/features.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analyzer_impl.h"
#include "model/features_core.h"
#include "normalize/normalize.h"
#include "scamcheck/scamcheck.h"

namespace model = scamcheck::internal::model;
using scamcheck::Kind;

namespace {

const scamcheck::internal::AnalyzerImpl& rules_analyzer() {
  static auto created = scamcheck::Analyzer::create({.use_model = false});
  REQUIRE_MESSAGE(created.ok(), created.status().to_string());
  return static_cast<const scamcheck::internal::AnalyzerImpl&>(**created);
}

// The word and link features of an input as analyze() reads it (rule
// findings are left out: the rules see the recipient's domain in links).
std::set<std::uint32_t> hashes(std::string_view content, Kind kind) {
  auto f = rules_analyzer().model_features(content, kind);
  REQUIRE_MESSAGE(f.ok(), f.status().to_string());
  std::set<std::uint32_t> out;
  for (const auto& h : f->hits) {
    if (h.group != model::Group::kOther) out.insert(h.hash);
  }
  return out;
}

model::FeatureSet prose(std::string_view text) {
  model::FeatureSet f;
  model::add_prose(text, f.add_location("content"), f);
  f.finish();
  return f;
}

}  // namespace

TEST_CASE("every word and link feature points at a span of its text") {
  const std::string text =
      "ÜBERWEISEN Sie jetzt 1.999,00 € an https://Konto-Pruefung.example.top/Login?id=7 "
      "oder mail an info@example.org – Ihre Bank";
  const model::FeatureSet f = prose(text);
  REQUIRE_FALSE(f.hits.empty());
  for (const auto& h : f.hits) {
    if (h.group == model::Group::kOther) continue;
    INFO("span [" << h.start << "," << h.end << ")");
    CHECK(h.start < h.end);
    CHECK(h.end <= text.size());
    // Words of fewer than three letters ("an", "1", "999"), alone or side
    // by side, are never quoted; a quoted word feature holds a word of
    // three letters or more.
    const std::string_view quoted = std::string_view(text).substr(h.start, h.end - h.start);
    std::size_t run = 0, longest = 0;
    for (char c : quoted) {
      run = std::isalpha(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80
                ? run + 1
                : 0;
      longest = std::max(longest, run);
    }
    if (quoted == "an" || longest == 0) CHECK(h.field == -1);
    if (h.group == model::Group::kWord && h.field >= 0) CHECK(longest >= 3);
    if (h.group != model::Group::kWord) CHECK(h.field == 0);
  }
  // The word features of "ÜBERWEISEN" quote it as written, not normalized.
  const bool quoted = std::any_of(f.hits.begin(), f.hits.end(), [&](const model::Hit& h) {
    return h.group == model::Group::kWord && text.substr(h.start, h.end - h.start) == "ÜBERWEISEN";
  });
  CHECK(quoted);
}

TEST_CASE("prose read from the rules' normalization has the same features") {
  // analyze() hands the rules' NormalizedText to the model; one that spaced
  // an underscore, or of another text, is not used.
  const auto same = [](const model::FeatureSet& a, const model::FeatureSet& b) {
    REQUIRE(a.hits.size() == b.hits.size());
    for (std::size_t i = 0; i < a.hits.size(); ++i) {
      CHECK(a.hits[i].hash == b.hits[i].hash);
      CHECK(a.hits[i].value == b.hits[i].value);
      CHECK(a.hits[i].field == b.hits[i].field);
      CHECK(a.hits[i].start == b.hits[i].start);
      CHECK(a.hits[i].end == b.hits[i].end);
    }
  };
  for (const std::string text :
       {"ÜBERWEISEN Sie jetzt 1.999,00 € an https://Konto-Pruefung.example.top/Login?id=7",
        "You_have_won a prize, reply to user_name@example.com", "Ｆｒｅｅ ｇｉｆｔ\u200B now"}) {
    INFO(text);
    const scamcheck::internal::NormalizedText rules(text, /*underscores_as_spaces=*/true);
    model::FeatureSet shared;
    model::add_prose(text, shared.add_location("content"), shared, {}, &rules);
    shared.finish();
    same(shared, prose(text));
    const std::string other = text + " ";
    model::FeatureSet elsewhere;
    model::add_prose(other, elsewhere.add_location("content"), elsewhere, {}, &rules);
    elsewhere.finish();
    same(elsewhere, prose(other));
  }
}

TEST_CASE("a link reads the same with and without its scheme and www") {
  model::FeatureSet a, b, c;
  model::add_url_input("paypal-verify.example.top/signin?x=1", a.add_location("content"), a);
  model::add_url_input("https://www.paypal-verify.example.top/signin?x=1",
                       b.add_location("content"), b);
  model::add_url_input("http://paypal-verify.example.top/signin?x=1", c.add_location("content"), c);
  a.finish();
  b.finish();
  c.finish();
  auto set_of = [](const model::FeatureSet& f) {
    std::set<std::uint32_t> s;
    for (const auto& h : f.hits) s.insert(h.hash);
    return s;
  };
  CHECK(set_of(a) == set_of(b));
  CHECK(set_of(a) == set_of(c));
  // "host", "host/" read alike too.
  model::FeatureSet d, e;
  model::add_url_input("example.org", d.add_location("content"), d);
  model::add_url_input("https://example.org/", e.add_location("content"), e);
  d.finish();
  e.finish();
  CHECK(set_of(d) == set_of(e));
}

TEST_CASE("a text's length and share of capitals are read without the URL schemes") {
  // The reading byte by byte, as the shape features are defined.
  const auto shape = [](std::string_view text) {
    std::size_t size = 0, letters = 0, upper = 0;
    for (std::size_t i = 0; i < text.size();) {
      const std::string_view rest = text.substr(i);
      if (scamcheck::internal::starts_with_ci(rest, "http://")) {
        i += 7;
      } else if (scamcheck::internal::starts_with_ci(rest, "https://")) {
        i += 8;
      } else {
        const char c = text[i++];
        ++size;
        letters += scamcheck::internal::is_alpha(c);
        upper += c >= 'A' && c <= 'Z';
      }
    }
    const char length = model::size_bucket(size, {30, 60, 100, 140, 170, 320});
    const char caps = letters < 8 ? 'n' : model::size_bucket(upper * 10 / letters, {0, 1, 2, 4, 7});
    return std::set<std::uint32_t>{model::hash_of_suffixed(model::kProseShapeNs, "len=", length),
                                   model::hash_of_suffixed(model::kProseShapeNs, "caps=", caps)};
  };
  for (const std::string& text : std::vector<std::string>{
           "URGENT: YOUR ACCOUNT IS LOCKED, visit HTTPS://SECURE.EXAMPLE.COM/Login now",
           "hhttp://x.example HTTP://Y.EXAMPLE hTtPs://z.example https:/ http: HTTPS",
           std::string(40, 'H') + "http://" + std::string(200, 'a'), "see https://", "Hi Harry, h",
           "Ünïcödé ÄRGER https://x.example/ÄÖÜ and more text here please",
           "http://start.example is where it begins", "HTTPS://START.EXAMPLE AT ONCE",
           "://x.example s://y ps://z ttps://w xhttps://v xhttp://u :// ://",
           "https://a.example/http://b.example/https://c"}) {
    INFO(text);
    const model::FeatureSet f = prose(text);
    std::set<std::uint32_t> found;
    for (const auto& h : f.hits) found.insert(h.hash);
    for (const std::uint32_t h : shape(text)) CHECK(found.count(h) == 1);
  }
}

TEST_CASE("word uni- and bigrams hash as the hash of their bytes") {
  // The reader hashes each token once for its unigram, its bigram with the
  // token before and the start of the next bigram: the same hashes as FNV
  // over the namespace and the token, and over the namespace, the first
  // token, 0x01 and the second (each token's digits as 0, at most
  // kMaxTokenBytes of it).
  const std::string long_word(60, 'q');
  const std::vector<std::string> words = {"call",    "08712300220", "now", "caf\xC3\xA9",
                                          long_word, "$50",         "x"};
  std::string text;
  for (const std::string& w : words) text += w + " ";
  const model::FeatureSet f = prose(text);
  std::set<std::uint32_t> found;
  for (const auto& h : f.hits) found.insert(h.hash);
  for (std::size_t i = 0; i < words.size(); ++i) {
    INFO(words[i]);
    CHECK(found.count(model::hash_of(model::kWordNs, words[i])) == 1);
    if (i == 0) continue;
    model::Fnv pair(model::kBigramNs);
    pair.add(words[i - 1], true);
    pair.add(0x01);
    pair.add(words[i], true);
    CHECK(found.count(pair.h) == 1);
  }
}

TEST_CASE("every kind of white space separates words alike") {
  const auto hits = [](std::string_view text) {
    std::vector<std::tuple<std::uint32_t, std::int32_t, std::uint32_t, std::uint32_t>> out;
    for (const auto& h : prose(text).hits) out.emplace_back(h.hash, h.field, h.start, h.end);
    return out;
  };
  CHECK(hits("Pay $50\tnow\nat\rthe\fbank\vtoday, caf\xC3\xA9 x_y") ==
        hits("Pay $50 now at the bank today, caf\xC3\xA9 x_y"));
  CHECK(hits("Pay $50 now") != hits("Pay $5O now"));
  CHECK(hits("Pay $50\tnow\nat\rthe\fbank\vtoday x_y") ==
        hits("Pay $50 now at the bank today x_y"));
  // Printable ASCII and white space only: every word of three letters or
  // more may be quoted, alone or beside a shorter one ("$50 now").
  const std::string plain = "Pay $50\tnow\nat\rthe\fbank\vtoday, x_y";
  for (const auto& h : prose(plain).hits) {
    if (h.group != model::Group::kWord) continue;
    const std::string quoted = plain.substr(h.start, h.end - h.start);
    const bool short_words =
        quoted == "$50" || quoted == "at" || quoted == "x" || quoted == "y" || quoted == "x_y";
    CHECK_MESSAGE(h.field == (short_words ? -1 : 0), quoted);
  }
  // A control character makes its chunk unreadable: counted, never quoted;
  // the other chunks of the text stay readable.
  for (const char* text : {"call\x01now today", "call\x7Fnow today"}) {
    INFO(text);
    for (const auto& h : prose(text).hits) {
      if (h.group != model::Group::kWord) continue;
      if (h.start == 0) CHECK(h.field == -1);
      if (h.start == 9) CHECK(h.field == 0);
    }
  }
}

TEST_CASE("a cleared feature set reads the next input as a new one would") {
  // analyze() reuses one feature set per thread, input after input.
  model::FeatureSet f;
  std::vector<std::string> domains;
  f.link_domains = &domains;
  f.mail_words = true;
  model::add_prose("Dear customer, verify at http://x.example/login", f.add_location("body"), f);
  f.finish();
  f.clear();
  CHECK(f.locations.empty());
  CHECK(f.hits.empty());
  CHECK(f.word_tokens == 0);
  CHECK(f.link_domains == nullptr);
  CHECK_FALSE(f.mail_words);
  const std::string text = "Your parcel is held, pay $1.99 at https://parcel.example.top/pay";
  model::add_prose(text, f.add_location("content"), f);
  f.finish();
  const model::FeatureSet fresh = prose(text);
  REQUIRE(f.hits.size() == fresh.hits.size());
  for (std::size_t i = 0; i < f.hits.size(); ++i) {
    CHECK(f.hits[i].hash == fresh.hits[i].hash);
    CHECK(f.hits[i].value == fresh.hits[i].value);
    CHECK(f.hits[i].field == fresh.hits[i].field);
  }
  CHECK(f.locations == fresh.locations);
}

TEST_CASE("digits read as shapes") {
  auto set_of = [](const model::FeatureSet& f) {
    std::set<std::uint32_t> s;
    for (const auto& h : f.hits) s.insert(h.hash);
    return s;
  };
  CHECK(set_of(prose("Call 09061701461 before 2005")) ==
        set_of(prose("Call 08712300220 before 1999")));
}

TEST_CASE("recipient headers and addresses are not features") {
  auto mail = [](const std::string& to) {
    return "From: Support <help@mailbox-support.example>\r\nTo: " + to + "\r\nDelivered-To: " + to +
           "\r\nX-Original-To: " + to +
           "\r\nSubject: Mailbox full\r\n\r\nDear customer, the mailbox " + to +
           " is full. Log in at https://webmail.phish-host.top/u/" + to + "/login now\r\n";
  };
  const auto a = hashes(mail("jose@monkey.org"), Kind::kEmail);
  CHECK(a.size() > 10);
  CHECK(a == hashes(mail("user@example.org"), Kind::kEmail));
}

TEST_CASE("a mail's features say whether its links lead to the sender's own domain") {
  // The features without a place in the input (rules, headers, the mail's
  // structure) of a short mail from news@lindenhof-kaffee.de linking `url`.
  auto other = [](const std::string& url) {
    const std::string mail =
        "From: Kaffeeroesterei Lindenhof <news@lindenhof-kaffee.de>\r\n"
        "Subject: Neue Ernte\r\n\r\nDie neue Ernte ist da: " +
        url + "\r\n";
    auto f = rules_analyzer().model_features(mail, Kind::kEmail);
    REQUIRE_MESSAGE(f.ok(), f.status().to_string());
    std::set<std::uint32_t> out;
    for (const auto& h : f->hits) {
      if (h.group == model::Group::kOther) out.insert(h.hash);
    }
    return out;
  };
  const auto own = other("https://www.lindenhof-kaffee.de/ernte");
  CHECK(own == other("https://shop.lindenhof-kaffee.de/ernte"));
  CHECK(own != other("https://lindenhof-kaffee.shop-angebot.com/ernte"));
}

TEST_CASE("a reply address the mail was delivered to is the recipient's, not a sender's feature") {
  // A mailing list that takes the replies: Reply-To is the list, which is
  // also the recipient. Where the list lives must not move the features.
  auto other = [](const std::string& list) {
    const std::string mail = "From: Motor Works <sales@motor-works.example>\r\nTo: " + list +
                             "\r\nReply-To: " + list +
                             "\r\nSubject: DC motors\r\n\r\nWe make small DC motors for toys.\r\n";
    auto f = rules_analyzer().model_features(mail, Kind::kEmail);
    REQUIRE_MESSAGE(f.ok(), f.status().to_string());
    std::set<std::uint32_t> out;
    for (const auto& h : f->hits) {
      if (h.group == model::Group::kOther) out.insert(h.hash);
    }
    return out;
  };
  CHECK(other("list@motor-works.example") == other("list@lists.example.net"));
}

TEST_CASE("bare file and command names in prose are never quoted as links") {
  // A kernel mailing list: "mkfs.xfs", "oops1.dat" and "mkfs" name things on
  // a disk; only a real top-level domain makes a bare host a link a person
  // recognises (the model reads the others as before, without a place).
  const model::FeatureSet f = prose(
      "I ran mkfs.xfs on the new disk, mkfs then crashed; the log is in oops1.dat. "
      "Details on kernel.org/doc.");
  std::string links;
  for (const auto& h : f.hits) {
    if (h.group != model::Group::kUrl || h.field < 0) continue;
    links += " [" + std::to_string(h.start) + "," + std::to_string(h.end) + ")";
    CHECK(h.start >= 87);  // only "kernel.org/doc", at the end
  }
  CHECK_FALSE(links.empty());
}

TEST_CASE("words nobody can read count but are never a place to quote") {
  // An 8-bit body of garbage bytes read as Latin-1, between readable words.
  const std::string garbage = "Rechnung \xC3\xBF\xC3\xA3\xC2\xBE\xC3\xB0\xC3\x86\xC3\x9F x";
  const model::FeatureSet f = prose(garbage);
  bool garbage_counted = false;
  for (const auto& h : f.hits) {
    if (h.group != model::Group::kWord) continue;
    if (h.field < 0) {
      garbage_counted = true;
      continue;
    }
    const std::string quoted = garbage.substr(h.start, h.end - h.start);
    INFO(quoted);
    CHECK(quoted.find('\xC3') == std::string::npos);
  }
  CHECK(garbage_counted);
  // Accented words of real languages stay quotable.
  for (const char* word : {"été", "Größe", "Ärger!", "Привет,", "£1000 Prämie"}) {
    const model::FeatureSet w = prose(word);
    const bool placed = std::any_of(w.hits.begin(), w.hits.end(), [](const model::Hit& h) {
      return h.group == model::Group::kWord && h.field == 0;
    });
    CHECK_MESSAGE(placed, word);
  }
}

TEST_CASE("finish keeps the first hit of each feature, in the order of the hashes, at any size") {
  // Small sets are sorted whole; large ones are made distinct first: both
  // must give what a stable sort by hash keeping each hash's first hit gives.
  std::uint32_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return seed;
  };
  for (const std::size_t n : {0u, 1u, 7u, 1024u, 1025u, 3000u, 20000u}) {
    for (const std::uint32_t distinct : {1u, 3u, 200u, 1500u, 100000u}) {
      CAPTURE(n);
      CAPTURE(distinct);
      model::FeatureSet f;
      for (std::size_t i = 0; i < n; ++i) {
        // Hashes drawn from `distinct` values spread over 32 bits.
        const std::uint32_t h = (next() % distinct) * 2654435761u;
        const auto group = static_cast<model::Group>(h % 3);
        f.hits.push_back(model::Hit{h, 1.0f, group, 0, static_cast<std::uint32_t>(i),
                                    static_cast<std::uint32_t>(i + 1)});
      }
      std::vector<model::Hit> expected = f.hits;
      std::stable_sort(expected.begin(), expected.end(),
                       [](const model::Hit& a, const model::Hit& b) { return a.hash < b.hash; });
      expected.erase(
          std::unique(expected.begin(), expected.end(),
                      [](const model::Hit& a, const model::Hit& b) { return a.hash == b.hash; }),
          expected.end());
      f.finish();
      REQUIRE(f.hits.size() == expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i) {
        CHECK(f.hits[i].hash == expected[i].hash);
        CHECK(f.hits[i].start == expected[i].start);
        CHECK(f.hits[i].group == expected[i].group);
      }
    }
  }
}
