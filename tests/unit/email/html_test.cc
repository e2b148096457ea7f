// HtmlChecker: visible text with its map back to the source, and the HTML
// findings, each quoting the source verbatim.
#include "email/html.h"

#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "email/html_scan.h"
#include "email/html_style.h"
#include "url/url_analyzer.h"
#include "util/text.h"

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

const UrlAnalyzer& url_analyzer() {
  static const std::unique_ptr<UrlAnalyzer> a = [] {
    auto loaded = UrlAnalyzer::load(DataSource(SCAMCHECK_DATA_DIR));
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().to_string());
    return std::move(loaded.value());
  }();
  return *a;
}

const HtmlChecker& checker() {
  static const std::unique_ptr<HtmlChecker> c = [] {
    auto loaded = HtmlChecker::load(DataSource(SCAMCHECK_DATA_DIR), url_analyzer());
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().to_string());
    return std::move(loaded.value());
  }();
  return *c;
}

struct Outcome {
  VisibleText visible;
  std::multimap<std::string, std::string> evidence;  // key -> evidence
  Findings findings;
  std::vector<std::string> all(const std::string& key) const {
    std::vector<std::string> out;
    auto [b, e] = evidence.equal_range(key);
    for (auto it = b; it != e; ++it) out.push_back(it->second);
    return out;
  }
  std::string first(const std::string& key) const {
    auto it = evidence.find(key);
    return it == evidence.end() ? std::string() : it->second;
  }
  bool has(const std::string& key) const { return evidence.count(key) > 0; }
};

// The source slice a span [s, e) of the visible text maps to.
std::string source_of(const VisibleText& v, const std::string& html, std::size_t s, std::size_t e) {
  REQUIRE(s < e);
  REQUIRE(e <= v.text.size());
  std::size_t a = v.source_start[s], b = v.source_end[e - 1];
  REQUIRE(a < b);
  REQUIRE(b <= html.size());
  return html.substr(a, b - a);
}

std::string source_of(const VisibleText& v, const std::string& html, std::string_view needle) {
  std::size_t at = v.text.find(needle);
  REQUIRE_MESSAGE(at != std::string::npos, "not in visible text: " << needle);
  return source_of(v, html, at, at + needle.size());
}

// Runs the checker and checks the invariants every result must keep.
Outcome run(const std::string& html) {
  Outcome o;
  checker().check(html, "body:html", o.findings, o.visible);
  const VisibleText& v = o.visible;
  REQUIRE(v.source_start.size() == v.text.size());
  REQUIRE(v.source_end.size() == v.text.size());
  CHECK(is_valid_utf8(v.text));
  for (std::size_t i = 0; i < v.text.size(); ++i) {
    CHECK(v.source_start[i] < v.source_end[i]);
    CHECK(v.source_end[i] <= html.size());
  }
  for (const VisibleText::Link& l : v.links) {
    CHECK(l.href_start < l.href_end);
    CHECK(l.href_end <= html.size());
    CHECK_FALSE(l.href.empty());
  }
  for (const Finding& f : o.findings) {
    CHECK(f.location == "body:html");
    REQUIRE(f.start < f.end);
    REQUIRE(f.end <= html.size());
    CHECK(f.strength > 0);
    std::string ev = html.substr(f.start, f.end - f.start);
    if (is_valid_utf8(html)) CHECK(is_valid_utf8(ev));
    o.evidence.emplace(f.key, ev);
  }
  return o;
}

}  // namespace

TEST_CASE("visible text: entities decoded, each character maps to its source") {
  std::string html =
      "<p>Hallo&nbsp;W&ouml;rld &amp; Co &#228;&#x20AC; &copy2024 Gr\xC3\xBC\xC3\x9F"
      "e</p>";
  Outcome o = run(html);
  CHECK(o.visible.text ==
        "Hallo\xC2\xA0W\xC3\xB6rld & Co \xC3\xA4\xE2\x82\xAC \xC2\xA9"
        "2024 Gr\xC3\xBC\xC3\x9F"
        "e");
  CHECK(source_of(o.visible, html, "\xC3\xB6") == "&ouml;");
  CHECK(source_of(o.visible, html, "&") == "&amp;");
  CHECK(source_of(o.visible, html, "\xE2\x82\xAC") == "&#x20AC;");
  CHECK(source_of(o.visible, html, "\xC2\xA9") == "&copy");
  CHECK(source_of(o.visible, html,
                  "\xC2\xA9"
                  "2024") == "&copy2024");
  CHECK(source_of(o.visible, html, "W\xC3\xB6rld & Co") == "W&ouml;rld &amp; Co");
  CHECK(source_of(o.visible, html,
                  "Gr\xC3\xBC\xC3\x9F"
                  "e") ==
        "Gr\xC3\xBC\xC3\x9F"
        "e");
  // Every byte of a multi-byte character maps to the whole character.
  std::size_t at = o.visible.text.find("\xC3\xBC");
  CHECK(source_of(o.visible, html, at + 1, at + 2) == "\xC3\xBC");
  // Each byte of an entity's character maps to the whole entity.
  at = o.visible.text.find("\xE2\x82\xAC");
  CHECK(source_of(o.visible, html, at + 1, at + 2) == "&#x20AC;");
}

TEST_CASE("visible text: head, title, script and style are not shown") {
  Outcome o =
      run("<html><head><title>Title</title><style>p{color:red}</style></head>"
          "<body><script>var x = 1;</script><p>Body text</p><noscript>n</noscript></body></html>");
  CHECK(o.visible.text == "Body text");
}

TEST_CASE("visible text: blocks are separated, white space collapsed") {
  std::string html =
      "<div>Verify</div><div>your\n   account</div><table><tr><td>a</td><td>b</td></tr>"
      "<tr><td>c</td></tr></table>line<br>break <b>bold</b>ly";
  Outcome o = run(html);
  CHECK(o.visible.text == "Verify\nyour account\na b\nc\nline\nbreak boldly");
  // A separator maps to what lies between the two characters in the source.
  CHECK(source_of(o.visible, html, "Verify\nyour") == "Verify</div><div>your");
  CHECK(source_of(o.visible, html, "line\nbreak") == "line<br>break");
  CHECK(source_of(o.visible, html, "boldly") == "bold</b>ly");
}

TEST_CASE("visible text: CRLF, <pre> and malformed markup") {
  Outcome o = run("<p>a\r\nb</p><pre>\nx  y</pre><p>unclosed <b>tag<p>next &unknown; & done");
  CHECK(o.visible.text == "a b\nx y\nunclosed tag\nnext &unknown; & done");
  // Text after </body> and </html> joins the body; the tags stay out of it.
  std::string tail = "<p>x</p></body>\nhello\n</html>tail";
  o = run(tail);
  CHECK(o.visible.text == "x\nhello tail");
  CHECK(source_of(o.visible, tail, "hello tail") == "hello\n</html>tail");
  Outcome empty = run("");
  CHECK(empty.visible.text.empty());
  CHECK(empty.findings.empty());
}

TEST_CASE("visible.links: web and script links with the href's source span") {
  std::string html =
      "<a href=\"https://a.example/?x=1&amp;y=2\">A</a> <a href='mailto:x@y.example'>M</a> "
      "<a href=\" javascript:void(0) \">J</a> <a href=\"#top\">T</a> "
      "<a href=www.b.example/p>B</a>";
  Outcome o = run(html);
  REQUIRE(o.visible.links.size() == 3);
  const auto& a = o.visible.links[0];
  CHECK(a.href == "https://a.example/?x=1&y=2");
  CHECK(html.substr(a.href_start, a.href_end - a.href_start) == "https://a.example/?x=1&amp;y=2");
  const auto& j = o.visible.links[1];
  CHECK(j.href == "javascript:void(0)");
  CHECK(html.substr(j.href_start, j.href_end - j.href_start) == "javascript:void(0)");
  const auto& b = o.visible.links[2];
  CHECK(b.href == "www.b.example/p");
  CHECK(html.substr(b.href_start, b.href_end - b.href_start) == "www.b.example/p");
  CHECK(o.findings.empty());
}

TEST_CASE("link_text_mismatch: the text shows one site, the href leads to another") {
  Outcome o =
      run("<p>Log in: <a href=\"http://login-check.example.net/pp\">www.paypal.com</a></p>");
  CHECK(o.all("link_text_mismatch") == std::vector<std::string>{"www.paypal.com"});

  // The evidence is the address as written, character references included.
  o = run("<a href=\"https://203.0.113.9/x\">https://secure.bank.de/l&#111;gin</a>");
  CHECK(o.first("link_text_mismatch") == "https://secure.bank.de/l&#111;gin");

  // Spread over inline elements: the source slice between them is quoted.
  o = run("<a href=\"http://evil.example/\"><b>www.</b>amazon.de</a>");
  CHECK(o.first("link_text_mismatch") == "www.</b>amazon.de");

  // Multi-byte text around the address.
  o =
      run("<a href=\"http://x.example.org\">Zur \xC3\x9C"
          "bersicht: www.sparkasse.de</a>");
  CHECK(o.first("link_text_mismatch") == "www.sparkasse.de");
  // A bare name counts when it is the whole link text; fully when it is a
  // brand's official domain.
  o = run("<a href=\"http://x.example.org\">\n  PayPal.com </a>");
  CHECK(o.first("link_text_mismatch") == "PayPal.com");
  CHECK(o.findings[0].strength == 1.0);
  o = run("<a href=\"http://x.example.org\">MyGardenShop.com</a>");
  CHECK(o.first("link_text_mismatch") == "MyGardenShop.com");
  CHECK(o.findings[0].strength == 0.5);
  // Links through a click-tracking host need other signs: weaker.
  Findings fs;
  VisibleText v;
  checker().check("<a href=\"https://click.mailer.example/c?q=ab12\">www.paypal.com</a>",
                  "body:html", fs, v);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].strength < 1.0);
}

TEST_CASE(
    "link_text_mismatch: the sender's own tracker and one host behind many sites count less") {
  const std::string one = "<a href=\"http://www.news.example.com/offer\">www.paypal.com</a>";
  Findings fs;
  VisibleText v;
  checker().check(one, "body:html", "example.com", 0.25, fs, v);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].strength == doctest::Approx(0.25));
  fs.clear();
  checker().check(one, "body:html", "example.org", 0.25, fs, v);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].strength == 1.0);

  // Three different sites shown, one host behind them all: a newsletter.
  Outcome o =
      run("<a href=\"http://www.example.org/a\">www.first-shop.com</a> "
          "<a href=\"http://www.example.org/b\">www.second-shop.com</a> "
          "<a href=\"http://www.example.org/c\">www.third-shop.com</a>");
  REQUIRE(o.findings.size() == 3);
  for (const Finding& f : o.findings) CHECK(f.strength == doctest::Approx(kTrackerStrength));
  // One site shown again and again: a lure, at full strength.
  o =
      run("<a href=\"http://www.example.org/a\">www.paypal.com</a> "
          "<a href=\"http://www.example.org/b\">www.paypal.com</a> "
          "<a href=\"http://www.example.org/c\">www.paypal.com</a>");
  REQUIRE(o.findings.size() == 3);
  for (const Finding& f : o.findings) CHECK(f.strength == 1.0);
}

TEST_CASE("link_text_mismatch: not for the same site, plain words or redirects to the shown site") {
  for (const char* html : {
           "<a href=\"https://www.paypal.com/signin\">paypal.com</a>",
           "<a href=\"https://news.shop.example.com/c/123\">www.shop.example.com</a>",
           "<a href=\"https://www.paypal.de/\">www.paypal.com</a>",  // same organisation
           "<a href=\"http://evil.example.net/\">Click here</a>",
           // A name that looks like a domain inside a headline.
           "<a href=\"http://clickthru.example.com/Click?q=1\">CNET News.com: Top CIOs</a>",
           "<a href=\"http://otn.example.com/odpnet\">Data Provider for .NET (ODP.NET)</a>",
           "<a href=\"http://evil.example.net/\">Update your account</a>",
           "<a href=\"mailto:support@paypal.com\">support@paypal.com</a>",
           "<a href=\"https://click.esp.example/t?u=https%3A%2F%2Fwww.shop.com%2Fsale\">"
           "www.shop.com</a>",
           "<a href=\"https://track.example/r?url=http://shop.com/\">shop.com</a>",
           "<a href=\"http://evil.example.net/\"><img src=\"logo.png\" alt=\"paypal.com\"></a>",
       }) {
    INFO(html);
    CHECK_FALSE(run(html).has("link_text_mismatch"));
  }
}

TEST_CASE("html_form: forms and password fields, quoted as written") {
  std::string html =
      "<p>Confirm:</p><form action=\"https://evil.example/p.php\" method=\"post\">"
      "<input type=\"text\" name=\"user\"><INPUT TYPE=Password name=pw></form>";
  Outcome o = run(html);
  CHECK(o.all("html_form") ==
        std::vector<std::string>{"<form action=\"https://evil.example/p.php\" method=\"post\">",
                                 "<INPUT TYPE=Password name=pw>"});
  // A long start tag is quoted by its action.
  std::string long_tag = "<form method=post action=\"https://evil.example/x\" style=\"" +
                         std::string(250, ' ') + "\">";
  o = run(long_tag + "<input name=a><input name=b></form>");
  CHECK(o.first("html_form") == "https://evil.example/x");
  CHECK_FALSE(run("<p>No form here, just <input> text</p>").has("html_form"));
  // Search boxes and sign-ups: one field, or sent with GET.
  CHECK_FALSE(run("<form action=\"https://shop.example/search\" method=\"post\">"
                  "<input type=\"text\" name=\"q\"><input type=\"submit\"></form>")
                  .has("html_form"));
  CHECK_FALSE(run("<form action=\"https://search.example/\"><input name=q><input name=cat>"
                  "</form>")
                  .has("html_form"));
  // Fields of a form in a table that the parser moves out of it still count.
  o =
      run("<table><form method=post action=\"https://x.example/\"><tr><td><input name=a>"
          "<input type=password name=b></td></tr></form></table>");
  CHECK(o.all("html_form") ==
        std::vector<std::string>{"<form method=post action=\"https://x.example/\">",
                                 "<input type=password name=b>"});
  // A card form without a password field still counts.
  o =
      run("<form method=post action=\"https://pay.example/\"><input name=card>"
          "<input name=exp><input name=cvv></form>");
  CHECK(o.first("html_form") == "<form method=post action=\"https://pay.example/\">");
}

TEST_CASE("hidden_text: invisible runs of text, quoted from their start") {
  std::string junk = "tulip granite oxygen marble violet harbor candle";
  Outcome o = run("<p>Hello</p><div style=\"display: none\">" + junk + "</div><p>Bye</p>");
  CHECK(o.all("hidden_text") == std::vector<std::string>{junk});
  CHECK(o.visible.text == "Hello\nBye");

  // Longer runs are cut after 60 source bytes, on a character boundary.
  std::string umlauts;
  for (int i = 0; i < 40; ++i) umlauts += "\xC3\xA4";  // 80 bytes
  o = run("<p>Hi</p><span style=\"font-size:0px\">x" + umlauts + "</span>");
  std::string cut = "x";
  cut += umlauts.substr(0, 58);  // (not "x" + ...: GCC 12 warns falsely, -Wrestrict)
  CHECK(o.first("hidden_text") == cut);

  // Entities count as one character and are never cut.
  o = run("<p>Hi</p><span style='visibility:hidden'>" + std::string(50, 'a') +
          "&amp;&amp;&amp;&amp;bbbbbbbbbbb</span>");
  CHECK(o.first("hidden_text") == std::string(50, 'a') + "&amp;&amp;");

  // White on white, and colors equal to an explicit background.
  o = run("<body bgcolor=\"#FFFFFF\"><p>Offer</p><font color=\"#fffffe\">" + junk +
          "</font></body>");
  CHECK(o.first("hidden_text") == junk);
  o = run("<p>Offer</p><span style=\"color:#fff\">" + junk + "</span>");
  CHECK(o.first("hidden_text") == junk);
  o =
      run("<table><tr><td style=\"background-color:rgb(0,0,0)\"><p>Offer</p>"
          "<span style=\"color:black\">" +
          junk + "</span></td></tr></table>");
  CHECK(o.first("hidden_text") == junk);
  o = run("<p>Offer</p><div style=\"max-height:0;overflow:hidden\">" + junk + "</div>");
  CHECK(o.first("hidden_text") == junk);
  o = run("<p>Offer</p><div style=\"opacity:0\">" + junk + "</div>");
  CHECK(o.first("hidden_text") == junk);
}

TEST_CASE("hidden_text: layout tricks and preview lines are not flagged") {
  std::string junk = "tulip granite oxygen marble violet harbor candle";
  for (const std::string& html : std::vector<std::string>{
           // A preview line before any visible text, padded with fillers.
           "<body><div style=\"display:none;mso-hide:all\">Your March statement is ready "
           "to view&zwnj;&nbsp;&zwnj;&nbsp;&zwnj;&nbsp;&zwnj;&nbsp;</div><p>Dear customer</p>",
           // font-size:0 on a container whose children set their own size.
           "<div style=\"font-size:0\"><div style=\"font-size:14px\">" + junk + "</div></div>",
           // White text on a dark or image background.
           "<table bgcolor=\"#003366\"><tr><td><font color=\"white\">" + junk +
               "</font></td></tr></table>",
           "<td style=\"background:url(bg.jpg)\"><span style=\"color:#ffffff\">" + junk +
               "</span></td>",
           "<style>.hero{background:#000}</style><p class=hero style=\"color:#fff\">" + junk +
               "</p>",
           // Mobile-only content shown by a media query.
           "<style>@media screen and (max-width:600px){.mobile-only{display:block!important}}"
           "</style><p>Desktop</p><div class=\"mobile-only\" style=\"display:none\">" +
               junk + "</div>",
           // Short hidden bits.
           "<p>Hi</p><span style=\"display:none\">tracking id 1234</span>",
           // Spacer cells and dividers.
           "<p>Hi</p><table><tr><td style=\"font-size:1px;line-height:1px\">&nbsp;</td></tr>"
           "<tr><td style=\"font-size:0\">&nbsp;&zwnj;&#8203; - - - - - - - - - - - - - - - - "
           "- - - -</td></tr></table>",
           // Outlook-only content sits in conditional comments.
           "<p>Hi</p><!--[if mso]><div style=\"display:none\">" + junk + "</div><![endif]-->",
       }) {
    INFO(html);
    CHECK_FALSE(run(html).has("hidden_text"));
  }
  // Content shown by a media query is visible text.
  Outcome o =
      run("<style>@media (max-width:600px){#m{display:block}}</style><div id=m "
          "style=\"display:none\">Mobile</div>");
  CHECK(o.visible.text == "Mobile");
}

TEST_CASE("obfuscated_url: character references for letters, controls inside the scheme") {
  std::string html = "<a href=\"&#104;&#116;&#116;&#112;://evil.example/\">x</a>";
  Outcome o = run(html);
  CHECK(o.first("obfuscated_url") == "&#104;&#116;&#116;&#112;://evil.example/");
  REQUIRE(o.visible.links.size() == 1);
  CHECK(o.visible.links[0].href == "http://evil.example/");

  o = run("<a href=\"java&#x09;script:alert(1)\">x</a>");
  CHECK(o.first("obfuscated_url") == "java&#x09;script:alert(1)");
  REQUIRE(o.visible.links.size() == 1);
  CHECK(o.visible.links[0].href == "javascript:alert(1)");

  // Escaped punctuation is what some template engines do; mailto: addresses
  // are encoded against harvesters.
  CHECK_FALSE(run("<a href=\"https&#x3a;&#x2f;&#x2f;shop.example&#x2f;a&#x3d;1\">x</a>")
                  .has("obfuscated_url"));
  CHECK_FALSE(run("<a href=\"mailto:&#106;&#111;&#101;@example.org\">x</a>").has("obfuscated_url"));
  CHECK(encoded_alnum_references("&#104;&#x74;&#X74;p&#58;&#x2F;") == 3);
}

TEST_CASE("tracking pixels and ordinary newsletters give no findings") {
  Outcome o =
      run("<html><body><table width=\"600\"><tr><td><h1>Spring sale</h1><p>Dear Anna, our "
          "spring collection is here.</p><a href=\"https://www.shop.example/sale?utm_source=nl\">"
          "Shop now</a><img src=\"https://t.shop.example/open.gif\" width=\"1\" height=\"1\">"
          "<p style=\"font-size:11px;color:#999999\">Unsubscribe at any time.</p></td></tr></table>"
          "</body></html>");
  CHECK(o.findings.empty());
  CHECK(o.visible.text ==
        "Spring sale\nDear Anna, our spring collection is here.\nShop now\n"
        "Unsubscribe at any time.");
}

TEST_CASE("styles and colors") {
  CHECK(parse_color("#FFF") == Rgb{255, 255, 255});
  CHECK(parse_color(" #00ff7f ") == Rgb{0, 255, 127});
  CHECK(parse_color("rgb(10, 20, 30)") == Rgb{10, 20, 30});
  CHECK(parse_color("White") == Rgb{255, 255, 255});
  CHECK(parse_color("ffffff") == Rgb{255, 255, 255});
  CHECK_FALSE(parse_color("transparent").has_value());
  CHECK_FALSE(parse_color("rgba(0,0,0,0)").has_value());
  InlineStyle st = parse_inline_style("DISPLAY : none !important; font-size: 0pt; color:#fff");
  CHECK(st.display_none);
  REQUIRE(st.font_size_px.has_value());
  CHECK(*st.font_size_px == 0.0);
  CHECK(st.color == Rgb{255, 255, 255});
  st = parse_inline_style("max-height:0px; overflow:hidden; background:#123 url(x.png)");
  CHECK(st.collapsed);
  CHECK(st.background_image);
  CHECK(st.background == Rgb{0x11, 0x22, 0x33});
  CHECK(parse_inline_style("font-size:1.5em").font_size_px == 24.0);
}

TEST_CASE("robust against broken and hostile markup") {
  std::mt19937 rng(7);
  const std::vector<std::string> pieces = {"<a href=\"",
                                           "\">",
                                           "<div style=\"display:none\">",
                                           "</div>",
                                           "&amp;",
                                           "&#",
                                           "&#x",
                                           "&nbsp",
                                           ";",
                                           "<table>",
                                           "<td>",
                                           "<!--",
                                           "-->",
                                           "<script>",
                                           "</script>",
                                           "\r\n",
                                           "\xC3\xA4",
                                           "\xFF",
                                           "www.paypal.com",
                                           "<form>",
                                           "<input type=password>",
                                           "<p>",
                                           "&",
                                           "<style>",
                                           "</style>",
                                           "<b>",
                                           "<i>",
                                           "</b>",
                                           "'",
                                           "\"",
                                           "=",
                                           " ",
                                           "x",
                                           "\0",
                                           "&notin",
                                           "&nbsp;&zwnj;",
                                           "<br/>",
                                           "<font color=#fff>",
                                           "<pre>",
                                           "\n",
                                           "<textarea>",
                                           "<svg>"};
  for (int round = 0; round < 300; ++round) {
    std::string html;
    int n = static_cast<int>(rng() % 60);
    for (int i = 0; i < n; ++i) html += pieces[rng() % pieces.size()];
    INFO(html);
    run(html);
  }
  // Deep nesting (quadratic in Gumbo) and long runs of formatting elements
  // stay fast, and the text after them is still seen.
  auto t0 = std::chrono::steady_clock::now();
  for (const char* piece : {"<div>", "<b>", "<a><b><a>", "<p><b><i><u><s>", "<q>"}) {
    std::string deep;
    while (deep.size() < 60000) deep += piece;
    Outcome o = run(deep + "<a href=\"http://e.example/\">www.paypal.com</a>");
    CHECK(o.visible.text.find("www.paypal.com") != std::string::npos);
  }
  std::string anchors;
  for (int i = 0; i < 3000; ++i) anchors += "<a href=\"http://e.example/\">www.paypal.com";
  CHECK(run(anchors).all("link_text_mismatch").size() == 3);  // at most kMaxFindingsPerKey
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  CHECK(ms < 1500);
}

TEST_CASE("a preview line is visible text, without its padding") {
  std::string html =
      "<body><div style=\"display:none;max-height:0;overflow:hidden\">Your parcel is on its "
      "way&nbsp;&zwnj;&nbsp;&zwnj;&#8203;</div><table><tr><td>Hello Anna</td></tr></table>";
  Outcome o = run(html);
  CHECK(o.visible.text == "Your parcel is on its way\nHello Anna");
  CHECK(source_of(o.visible, html, "its way") == "its way");
  CHECK(o.findings.empty());
  // Hidden text after visible text is not a preview line.
  o = run("<p>Hello</p><div style=\"display:none\">short</div>");
  CHECK(o.visible.text == "Hello");
}
