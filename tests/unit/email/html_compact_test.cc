// CompactHtml: the shorter copy Gumbo parses, and the scan of it being the
// scan of the source, range for range.
#include "email/html_compact.h"

#include <doctest/doctest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "email/html_scan.h"

using namespace scamcheck::internal;

namespace {

std::string compacted(const std::string& html) {
  CompactHtml c;
  return c.build(html) ? c.text() : html;
}

// Every field of a scan, printed.
std::string dump(const HtmlScan& s) {
  std::ostringstream o;
  o << "text=" << s.visible.text << "\n";
  for (std::size_t i = 0; i < s.visible.text.size(); ++i) {
    o << s.visible.source_start[i] << "-" << s.visible.source_end[i] << " ";
  }
  o << "\nlinks:";
  for (const auto& l : s.visible.links) o << " " << l.href_start << "-" << l.href_end << l.href;
  o << "\nanchors:";
  for (const auto& a : s.anchors) {
    o << " " << a.href_start << "-" << a.href_end << a.href << a.scheme_broken << a.web
      << a.text_start << "-" << a.text_end;
  }
  o << "\nforms:";
  for (const auto& f : s.forms) {
    o << " " << f.start << "-" << f.end << "," << f.action_start << "-" << f.action_end << ","
      << f.fields << f.passwords << f.get;
  }
  o << "\npasswords:";
  for (const auto& p : s.password_inputs) o << " " << p.start << "-" << p.end;
  o << "\nhidden:";
  for (const auto& h : s.hidden) {
    o << " " << static_cast<int>(h.reason) << "," << h.chars << "," << h.before_visible << ","
      << h.evidence_start << "-" << h.evidence_end;
  }
  return o.str();
}

void same_scan(const std::string& html) {
  HtmlScan with, without;
  scan_html(html, with, /*compact=*/true);
  scan_html(html, without, /*compact=*/false);
  INFO(html);
  CHECK(dump(with) == dump(without));
}

}  // namespace

TEST_CASE("the copy leaves out unread attributes of layout tags and runs of white space") {
  CHECK(compacted("<table width=\"600\" cellpadding=0 style=\"color:red\"><tr><td align=left "
                  "class=x>Hi</td></tr></table>") ==
        "<table style=\"color:red\"><tr><td>Hi</td></tr></table>");
  // Classes and ids are read when a style sheet may reveal hidden content.
  CHECK(compacted("<style>@media (max-width:600px){.x{display:block}}</style><td align=left "
                  "class=x id=y>Hi</td>") ==
        "<style>@media (max-width:600px){.x{display:block}}</style><td class=x id=y>Hi</td>");
  CHECK(compacted("<img src=\"http://e.example/p.gif\" width=1 height=1 alt=\"\">") == "<img>");
  // Of a layout element's style, the declarations the scan reads.
  CHECK(compacted("<div style=\"font-family: Arial; DISPLAY:none;border:0\">x</div>") ==
        "<div style=\" DISPLAY:none;\">x</div>");
  CHECK(compacted("<td style='width:1px;color:#fff'>x</td>") == "<td style='color:#fff'>x</td>");
  CHECK(compacted("<p style=\"a:&#59;display:none\">x</p>") ==
        "<p style=\"a:&#59;display:none\">x</p>");
  CHECK(compacted("<font style=\"width:1px\">x</font>") == "<font style=\"width:1px\">x</font>");
  CHECK(compacted("<div style=\"font-family:&quot;A;B&quot;; color:red\">x</div>") ==
        "<div style=\" color:red\">x</div>");
  // A style of nothing the scan reads is left out as a whole.
  CHECK(compacted("<td style=\"\"><div style='border:0; width: 3px'>x</div></td>") ==
        "<td><div>x</div></td>");
  CHECK(compacted("<p>\n      Hi   </p>") == "<p>\nHi </p>");
  // A run of plain text from a word's start to a word's end is one
  // placeholder character; not so near a character reference, nor with
  // one inside.
  CHECK(compacted("<p>\n      Hello\n\n   world   </p>") == "<p>\n\xEE\x80\x80 </p>");
  CHECK(compacted("<p>Hello world &amp; more words</p>") == "<p>\xEE\x80\x80 &amp; more words</p>");
  // A source that holds the placeholder, or a reference to it, gets no runs.
  CHECK(compacted("<p>Hello world</p><p>&#57344;</p>") == "<p>Hello world</p><p>&#57344;</p>");
  CHECK(compacted("<p>Hello world</p><p>\xEE\x80\x80</p>") ==
        "<p>Hello world</p><p>\xEE\x80\x80</p>");
  // Of an anchor, what the scan reads.
  CHECK(compacted("<a href=\"x\" target=_blank title=t style='border:0;color:red'>x</a>") ==
        "<a href=\"x\" style='color:red'>x</a>");
  // Kept: other formatting elements, inputs and forms, body.
  for (const std::string kept :
       {"<font face=Arial size=2>x</font>", "<input type=hidden name=a value=b>",
        "<body bgcolor=#fff leftmargin=0>", "<form action=/x method=post name=f>"}) {
    CHECK(compacted(kept) == kept);
  }
  // Kept: attributes that cannot be cut cleanly.
  for (const std::string kept : {"<img alt=\"a>b\">", "<img/src=x>", "<img / src=x>",
                                 "<img src=\"x\"alt=y>", "<img src=x"}) {
    CHECK(compacted(kept) == kept);
  }
  // Of unread raw text, nothing; of a style sheet (with no "@media" in the
  // part), whether it mentions backgrounds.
  CHECK(compacted("<title>Hi there</title><style>p{color:red}</style>"
                  "<style>td{BACKGROUND:#fff;color:red}</style><iframe>x</iframe>") ==
        "<title></title><style></style><style>BACKGROUND</style><iframe></iframe>");
  // Comments without their text; raw text as written; nothing after <script>.
  CHECK(compacted("<!-- <img src=x>  --><textarea>  td  { }</textarea><xmp>  a  </xmp>"
                  "<img src=x><!--x--!><!-->") ==
        "<!----><textarea>  td  { }</textarea><xmp>  a  </xmp><img><!----!><!-->");
  CHECK(compacted("<img src=x><script>  a  </script>  <img src=y>") ==
        "<img><script>  a  </script>  <img src=y>");
  // Positions map back to the source.
  const std::string html = "<td width=1>  Hi</td>";
  CompactHtml c;
  REQUIRE(c.build(html));
  CHECK(c.text() == "<td> Hi</td>");
  CHECK(c.to_source(c.text().find('>')) == html.find('>'));
  CHECK(c.to_source(c.text().find('H')) == html.find('H'));
  CHECK(c.gap_before(c.text().find('H')) == 1);
  CompactHtml::Cursor at(c);
  CHECK(at.start(c.text().find('H')) == html.find('H'));
  CHECK(at.end(c.text().find('H')) == html.find('H') - 1);
}

TEST_CASE("the scan of the copy is the scan of the source") {
  same_scan(
      "<html><head><style>@media (max-width:600px){.m{display:block!important}}</style></head>"
      "<body bgcolor=#ffffff>\n  <div style=\"display:none\" class=m width=3>  Preview   text  "
      "</div>\n    <table width=600 cellpadding=0>\n      <tr>\n        <td align=center>\n"
      "          <a href=\"http://e.example/x\" target=_blank>  www.paypal.com  </a>\n"
      "          <img src=\"http://e.example/p.gif\" width=1 height=1>\n        </td>\n      "
      "</tr>\n"
      "    </table>\n    <form action=\"http://e.example/f\" name=x>\n      <input type=password>"
      "\n    </form>\n    <pre>\n\n   a   b</pre>\n  </body>\n</html>\n  \n");
  // A preview line padded with more white space than the scan buffers
  // (counted as written, though the copy leaves most of it out).
  std::string padded = "<div style=\"display:none\">Your parcel";
  for (int i = 0; i < 300; ++i) padded += " \xE2\x80\x8C" + std::string(40, ' ') + "\n";
  same_scan(padded + "x</div><p width=1>Hello</p>");
  padded = "<div style=\"display:none\">Your parcel";
  for (int i = 0; i < 300; ++i) padded += " \n    &nbsp;&zwnj;";
  same_scan(padded + "</div><p width=1>Hello</p>");
  // Random markup from pieces that meet at every boundary.
  {
    std::mt19937 rng(11);
    const std::vector<std::string> pieces = {
        "<div style=\"display:none\" width=2>", "</div>", "<td  align=left >", "<img src=x>",
        "<img alt=\"a>b\" src=y>", "<span class=c title='t'>", "</span>", "   ", "\r\n  ", "\t",
        "&amp;", "&nbsp;", "&#32;", "<a href=\"http://e.example/\" title=x>",
        "<a href=\"http://e.example/a\" target=_blank style=\"color:#fff;border:0\">",
        "<a title=t href=\"http://e.example/b\" class=c>",
        "<a href=\"http://e.example/c\" href=\"http://e.example/d\" rel=x>", "</a>", "<p>", "</p>",
        "<!-- c  -->", "<!-- <p> -- > --!> <b>", "<!--[if mso]><table width=1><![endif]-->",
        "<!--->", "<!---->", "<style> td { } </style>",
        "<style>@media x{.c{display:block}}</style>", "<div class=c style=\"display:none\">",
        "<pre>", "</pre>", "<listing>", "<textarea> a  b </textarea>", "<script> x </script>",
        "<svg><![CDATA[ <img src=z> ]]>", "</body>", "</html>", "<table>", "<tr>", "x",
        "www.paypal.com", "\xC3\xA4", "<", ">", "=", "\"", "<br/>", "<font color=#fff face=Arial>",
        "</font>", "<b>", "</b>", "<input type=password value=1>", "<form action=/x>",
        "<h1 id=a align=center>", "/",
        // Runs of plain text (one placeholder in the copy).
        "Dear customer, your account", " is on hold.\n  Verify it at once ", "\xEE\x80\x80",
        "&#57344;", "&#xe000;", "&copy2024 all rights", "\r\nplease read this notice",
        "first line\r\nsecond line\rthird   line", "&nbsp;Click here to confirm your details now",
        "Gr\xC3\xBC\xC3\x9F"
        "e aus M\xC3\xBCnchen, liebe Kunden",
        "price \xE2\x82\xAC"
        "100 \xE2\x80\x94 now\xC2\xA0only",
        "control \xC2\x85 here and there", "nonchar \xEF\xB7\x90 here and there",
        "bom \xEF\xBB\xBF here and there", "fffd \xEF\xBF\xBD here and there",
        "\xF0\x9F\x98\x80 smile at the end \xF0\x9F\x98\x80", "<frameset>", "<col span=2>",
        "<colgroup>", "<head>", "<caption>", "<select>", "<option>",
        "<div style=\"font-family: Arial; DISPLAY:none;border:0\">",
        "<span style='letter-spacing:1px;COLOR : #ffffff ; '>",
        "<td style=\"font-size:1px;width:2px\">",
        "<p style=\"x:1;\r\n color: white;;background:url(x.png)\">",
        "<div style=\"a&#59;display:none\">", "<table style=\"opacity:0\">",
        "<style>td { color: red } </style>", "<style>td { Background: red } </style>",
        "<title>Your account</title>", "<iframe>framed text</iframe>",
        "<div style=\"font-family:&quot;A;display:none&quot;;color:#fff\">", "<span style=\"\">",
        "<p style='border:0' >"};
    for (int round = 0; round < 5000; ++round) {
      std::string html;
      const int n = static_cast<int>(rng() % 50);
      for (int i = 0; i < n; ++i) html += pieces[rng() % pieces.size()];
      same_scan(html);
    }
    // Without character references, most text is runs of plain text.
    std::vector<std::string> plain;
    for (const std::string& p : pieces) {
      if (p.find('&') == std::string::npos) plain.push_back(p);
    }
    for (int round = 0; round < 3000; ++round) {
      std::string html;
      const int n = static_cast<int>(rng() % 50);
      for (int i = 0; i < n; ++i) html += plain[rng() % plain.size()];
      same_scan(html);
    }
  }
}
