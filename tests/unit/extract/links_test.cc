// Link extraction: which substrings of free text are links, their exact
// spans, and the refanged URL.
#include "extract/links.h"

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

using scamcheck::internal::extract_links;
using scamcheck::internal::LinkMatch;

namespace {

// The written links, in order.
std::vector<std::string> spans(std::string_view text) {
  std::vector<std::string> out;
  for (const LinkMatch& m : extract_links(text)) {
    out.emplace_back(text.substr(m.start, m.end - m.start));
  }
  return out;
}

std::vector<std::string> urls(std::string_view text) {
  std::vector<std::string> out;
  for (const LinkMatch& m : extract_links(text)) out.push_back(m.url);
  return out;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("full URLs with a scheme") {
  CHECK(spans("Go to https://www.paypal.com/signin now") == V{"https://www.paypal.com/signin"});
  CHECK(spans("HTTP://EXAMPLE.COM/A?b=1#c") == V{"HTTP://EXAMPLE.COM/A?b=1#c"});
  CHECK(spans("two: http://a.example/x and https://b.example/y.") ==
        V{"http://a.example/x", "https://b.example/y"});
  auto m = extract_links("see https://example.org/path");
  REQUIRE(m.size() == 1);
  CHECK(m[0].start == 4);
  CHECK(m[0].end == 28);
  CHECK(m[0].had_scheme);
  CHECK_FALSE(m[0].defanged);
  CHECK(m[0].url == "https://example.org/path");
}

TEST_CASE("trailing punctuation is not part of the link") {
  CHECK(spans("Visit https://example.com.") == V{"https://example.com"});
  CHECK(spans("Visit https://example.com/a, then") == V{"https://example.com/a"});
  CHECK(spans("Really https://example.com/a?!") == V{"https://example.com/a"});
  CHECK(spans("\"https://example.com/q\"") == V{"https://example.com/q"});
  CHECK(spans("'https://example.com/q'") == V{"https://example.com/q"});
  CHECK(spans("(see https://example.com/x)") == V{"https://example.com/x"});
  CHECK(spans("[link](https://example.com/md)") == V{"https://example.com/md"});
  CHECK(spans("<https://example.com/angle>") == V{"https://example.com/angle"});
  CHECK(spans("https://example.com/a; next") == V{"https://example.com/a"});
}

TEST_CASE("balanced parentheses inside a URL are kept") {
  CHECK(spans("https://en.wikipedia.org/wiki/Phishing_(disambiguation) is it") ==
        V{"https://en.wikipedia.org/wiki/Phishing_(disambiguation)"});
  CHECK(spans("(https://en.wikipedia.org/wiki/Foo_(bar))") ==
        V{"https://en.wikipedia.org/wiki/Foo_(bar)"});
}

TEST_CASE("bare domains and www forms") {
  CHECK(spans("Log in at paypal-secure.com/login today") == V{"paypal-secure.com/login"});
  CHECK(urls("Log in at paypal-secure.com/login today") == V{"http://paypal-secure.com/login"});
  CHECK(spans("www.example.de") == V{"www.example.de"});
  CHECK(spans("Besuchen Sie www.sparkasse.de/login.") == V{"www.sparkasse.de/login"});
  CHECK(spans("amzn.to/3xYz and bit.ly/abc") == V{"amzn.to/3xYz", "bit.ly/abc"});
  CHECK(spans("Link:paypal.com") == V{"paypal.com"});
  CHECK(spans("example.com:8080/admin") == V{"example.com:8080/admin"});
  auto m = extract_links("paypal.com");
  REQUIRE(m.size() == 1);
  CHECK_FALSE(m[0].had_scheme);
  // "paypal.com.Thanks": the sentence goes on without a space.
  CHECK(spans("Go to paypal.com.Thanks") == V{"paypal.com"});
}

TEST_CASE("a word is passed over only where no second label can follow it") {
  // Words of one label are skipped without the full host scan; whatever
  // may continue a host after them still gets it.
  CHECK(spans("Call example now").empty());
  CHECK(spans("Call example").empty());
  CHECK(spans("see example.com now") == std::vector<std::string>{"example.com"});
  CHECK(spans("see example[.]com now") == std::vector<std::string>{"example[.]com"});
  CHECK(spans("see example(.)com now") == std::vector<std::string>{"example(.)com"});
  CHECK(spans("see example{.}com now") == std::vector<std::string>{"example{.}com"});
  CHECK(spans("mail info@example.com now").empty());
  CHECK(spans("see münchen.de now") == std::vector<std::string>{"münchen.de"});
  CHECK(spans("see xn--mnchen-3ya.de/ok") == std::vector<std::string>{"xn--mnchen-3ya.de/ok"});
  const std::string long_word(300, 'a');
  CHECK(spans(long_word + ".com").empty());  // no host is that long
  CHECK(spans("x " + long_word).empty());
}

TEST_CASE("things that are not links") {
  // Bare names need a real top-level domain ("example" is reserved).
  CHECK(spans("www.b.example and c.example/z") == V{});
  CHECK(spans("e.g. this, i.e. that") == V{});
  CHECK(spans("open file.txt and notes.docx") == V{});
  CHECK(spans("Hello Mr.Smith") == V{});
  CHECK(spans("It costs 3.50 EUR, version 1.2.3 or v2.0.1") == V{});
  CHECK(spans("z.B. oder u.a. oder d.h.") == V{});
  CHECK(spans("Muster GmbH & Co.KG") == V{});
  CHECK(spans("Dr.med. Meier") == V{});
  CHECK(spans("see README.md and setup.py") == V{});
  CHECK(spans("grep your sendmail.cf and Config.pm") == V{});
  // A server address with a port but no scheme and no path: a log line.
  CHECK(spans("Using next closest server apt.cloudmark.com:2703, cached") == V{});
  CHECK(spans("167.206.208.233:24442 (200, 'OK')") == V{});
  CHECK(spans("Server 192.168.1.1 is down") == V{});
  CHECK(spans("ok.It is fine") == V{});
  CHECK(spans("data: 5 GB left") == V{});
  CHECK(spans("javascript: the good parts") == V{});
  CHECK(spans("ftp://files.example.com/x") == V{});
}

TEST_CASE("words glued by a dot are not links") {
  CHECK(spans("I have unsold.now and time.you see") == V{});
  CHECK(spans("Stupid.it was LIKING.BE K.k.how") == V{});
  CHECK(spans("see you today.do it") == V{});
  // ... but real names on such TLDs are.
  CHECK(spans("go to paypal-secure.live now") == V{"paypal-secure.live"});
  CHECK(spans("join t.me/freegift") == V{"t.me/freegift"});
  CHECK(spans("www.example.it") == V{"www.example.it"});
  CHECK(spans("securebankinglogin.live") == V{"securebankinglogin.live"});
}

TEST_CASE("a public suffix alone names no site") {
  CHECK(spans("GOV.UK ALERT: read the guidance") == V{});
  CHECK(spans("a co.uk or com.au address") == V{});
  // ... a name on it does, and the suffix with a path or www too.
  CHECK(spans("pay at hmrc-refund.gov.uk.example-pay.com") ==
        V{"hmrc-refund.gov.uk.example-pay.com"});
  CHECK(spans("see gov.uk/cost-of-living") == V{"gov.uk/cost-of-living"});
  CHECK(spans("www.gov.uk") == V{"www.gov.uk"});
}

TEST_CASE("e-mail addresses are not links, userinfo URLs are") {
  CHECK(spans("Write to user@example.com or john.smith@paypal.co.uk") == V{});
  CHECK(spans("mailto:info@example.com") == V{});
  CHECK(spans("List owner: *@yahoogroups.com, <list+x@shagmail.com>") == V{});
  CHECK(spans("https://paypal.com@evil.example/login") ==
        V{"https://paypal.com@evil.example/login"});
}

TEST_CASE("defanged links") {
  auto m = extract_links("bad: hxxps://evil[.]example[.]com/login now");
  REQUIRE(m.size() == 1);
  CHECK(m[0].defanged);
  CHECK(m[0].had_scheme);
  CHECK(m[0].url == "https://evil.example.com/login");
  CHECK(spans("bad: hxxps://evil[.]example[.]com/login now") ==
        V{"hxxps://evil[.]example[.]com/login"});
  CHECK(urls("evil(.)com/x") == V{"http://evil.com/x"});
  CHECK(urls("evil(dot)com") == V{"http://evil.com"});
  CHECK(urls("evil[dot]com") == V{"http://evil.com"});
  CHECK(urls("evil{.}com") == V{"http://evil.com"});
  CHECK(urls("hxxp[:]//evil.com/a") == V{"http://evil.com/a"});
  CHECK(urls("http[://]evil.com") == V{"http://evil.com"});
  CHECK(urls("HXXP://EVIL.COM") == V{"http://EVIL.COM"});
  CHECK(spans("(evil[.]com)") == V{"evil[.]com"});
}

TEST_CASE("script URLs") {
  CHECK(spans("click javascript:alert(document.cookie) now") ==
        V{"javascript:alert(document.cookie)"});
  CHECK(spans("data:text/html;base64,PHNjcmlwdD4= here") ==
        V{"data:text/html;base64,PHNjcmlwdD4="});
  CHECK(spans("vbscript:msgbox(1)") == V{"vbscript:msgbox(1)"});
}

TEST_CASE("IP addresses and ports") {
  CHECK(spans("go to http://192.168.0.1:8080/admin") == V{"http://192.168.0.1:8080/admin"});
  CHECK(spans("go to 185.12.3.4/login") == V{"185.12.3.4/login"});
  CHECK(spans("http://[2001:db8::1]/x") == V{"http://[2001:db8::1]/x"});
}

TEST_CASE("Unicode around and inside links") {
  // Cyrillic "а" inside a bare host.
  CHECK(spans("Log in: pаypal.com/verify") == V{"pаypal.com/verify"});
  CHECK(spans("https://münchen.de/rathaus") == V{"https://münchen.de/rathaus"});
  // Japanese text right after a link ends it.
  CHECK(spans("https://example.jp/abcにアクセスしてください") == V{"https://example.jp/abc"});
  CHECK(spans("詳細はamazon-co-jp.xyzへ") == V{"amazon-co-jp.xyz"});
  CHECK(spans("„https://example.de/x“") == V{"https://example.de/x"});
}

TEST_CASE("spans are ordered and never overlap") {
  std::string text =
      "A https://a.example/x(y) B www.b-site.de C c-site.com/z D hxxp://d[.]example "
      "user@e-site.com F https://f.example";
  auto m = extract_links(text);
  REQUIRE(m.size() == 5);
  for (std::size_t i = 0; i < m.size(); ++i) {
    CHECK(m[i].start < m[i].end);
    CHECK(m[i].end <= text.size());
    if (i > 0) CHECK(m[i - 1].end <= m[i].start);
  }
}

TEST_CASE("empty and odd input") {
  CHECK(extract_links("").empty());
  CHECK(extract_links("https://").empty());
  CHECK(extract_links("....").empty());
  CHECK(extract_links("a.b.c.d.e.f").empty());
  std::string long_text(100000, 'a');
  long_text += ".com";
  CHECK(extract_links(long_text).size() <= 1);
}

TEST_CASE("the word and file-extension TLD lists come from the data pack") {
  using scamcheck::internal::DataSource;
  using scamcheck::internal::LinkLists;
  auto lists = LinkLists::load(DataSource(SCAMCHECK_DATA_DIR));
  REQUIRE_MESSAGE(lists.ok(), lists.status().to_string());
  CHECK(lists->word_tlds == LinkLists::embedded().word_tlds);
  CHECK(lists->file_extension_tlds == LinkLists::embedded().file_extension_tlds);
  CHECK(extract_links("unsold.now and setup.py", *lists).empty());
  // Other lists (as from Options::data_dir) are honoured.
  LinkLists none;
  CHECK(extract_links("unsold.now and setup.py", none).size() == 2);
}

TEST_CASE("schemes in any case, and words that only start like one") {
  // The scheme test looks at the first letter first (h, j, v, d).
  CHECK(spans("JavaScript:alert(1) VBScript:x DATA:text/html,hi") ==
        V{"JavaScript:alert(1)", "VBScript:x", "DATA:text/html,hi"});
  CHECK(urls("Hxxps://evil.example/a") == V{"https://evil.example/a"});
  CHECK(spans("https-proxy and http-only and Data: 5 GB, vbscripting") == V{});
  // Defang markers start with one of "[({": other punctuation ends a host.
  CHECK(urls("evil[.]com, evil(.)org; evil{.}net") ==
        V{"http://evil.com", "http://evil.org", "http://evil.net"});
  CHECK(spans("a-shop.com;b-shop.org|c-shop.net") == V{"a-shop.com", "b-shop.org", "c-shop.net"});
}

// A text is scanned only when it holds a '.' before a label character, a
// scheme's ':' or a defang marker: each form on its own still counts, and
// texts with none of them (most SMS) hold no link.
TEST_CASE("the pre-check before the scan keeps every link form") {
  CHECK(spans("VBScript:msgbox(1)") == V{"VBScript:msgbox(1)"});
  CHECK(spans("hxxps[:]//evil(dot)com/x") == V{"hxxps[:]//evil(dot)com/x"});
  CHECK(spans("hxxp[://]evil[.]com") == V{"hxxp[://]evil[.]com"});
  CHECK(urls("paypal{dot}com") == V{"http://paypal.com"});
  CHECK(urls("paypal{.}com") == V{"http://paypal.com"});
  CHECK(spans("HTTPS://x.example") == V{"HTTPS://x.example"});
  CHECK(spans("go to bit.ly/x") == V{"bit.ly/x"});
  CHECK(spans("Txt charity to 8007 for polys: zed 08701417012. Ok (see) [x] {y}") == V{});
  CHECK(spans("Hello. How are you? e.g. 3.50") == V{});
}
