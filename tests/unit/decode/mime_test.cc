#include "decode/mime.h"

#include <doctest/doctest.h>

#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "decode/charset.h"
#include "util/text.h"

using namespace scamcheck::internal;

namespace {

ParsedEmail parse(std::string_view raw) {
  auto result = parse_email(raw);
  REQUIRE(result.ok());
  return std::move(result).value();
}

// Every decoded text a span can point into is valid UTF-8.
void check_all_utf8(const ParsedEmail& email) {
  for (const auto& h : email.headers) {
    CHECK(is_valid_utf8(h.name));
    CHECK(is_valid_utf8(h.value));
  }
  for (const auto& p : email.parts) {
    CHECK(is_valid_utf8(p.text));
    CHECK(is_valid_utf8(p.filename));
    CHECK(is_valid_utf8(p.location));
    CHECK(is_valid_utf8(p.content_type));
  }
}

std::string value_of(const ParsedEmail& email, std::string_view name) {
  auto found = email.find(name);
  REQUIRE(found.size() == 1);
  return found[0]->value;
}

}  // namespace

TEST_CASE("simple text mail") {
  const auto email = parse(
      "From: Alice <alice@example.org>\n"
      "To: bob@example.org\n"
      "Subject: Lunch\n"
      "\n"
      "See you at noon.\n");
  REQUIRE(email.headers.size() == 3);
  CHECK(email.headers[0].name == "From");
  CHECK(email.headers[0].value == "Alice <alice@example.org>");
  CHECK(email.headers[0].location() == "header:From");
  CHECK(value_of(email, "subject") == "Lunch");
  REQUIRE(email.parts.size() == 1);
  const auto& body = email.parts[0];
  CHECK(body.type == EmailPart::Type::kText);
  CHECK(body.content_type == "text/plain");
  CHECK(body.location == "body");
  CHECK(body.text == "See you at noon.\n");
  CHECK(body.depth == 0);
  CHECK(email.text_of("body") == "See you at noon.\n");
  CHECK(email.text_of("header:Subject") == "Lunch");
  CHECK(email.text_of("header:Nope").empty());
  CHECK(email.text_of("body#2").empty());
}

TEST_CASE("multipart/alternative with text and HTML, CRLF line ends") {
  const auto email = parse(
      "From: shop@example.com\r\n"
      "Subject: Your order\r\n"
      "MIME-Version: 1.0\r\n"
      "Content-Type: multipart/alternative; boundary=\"b1\"\r\n"
      "\r\n"
      "This is a multi-part message.\r\n"
      "--b1\r\n"
      "Content-Type: text/plain; charset=utf-8\r\n"
      "\r\n"
      "Thanks for your order.\r\n"
      "--b1\r\n"
      "Content-Type: text/html; charset=utf-8\r\n"
      "\r\n"
      "<p>Thanks for your <b>order</b>.</p>\r\n"
      "--b1--\r\n");
  REQUIRE(email.parts.size() == 2);
  CHECK(email.parts[0].type == EmailPart::Type::kText);
  CHECK(email.parts[0].location == "body");
  CHECK(email.parts[0].text == "Thanks for your order.");
  CHECK(email.parts[1].type == EmailPart::Type::kHtml);
  CHECK(email.parts[1].location == "body:html");
  CHECK(email.parts[1].text == "<p>Thanks for your <b>order</b>.</p>");
  CHECK(email.text_of("body:html") == "<p>Thanks for your <b>order</b>.</p>");
  CHECK(value_of(email, "Content-Type") == "multipart/alternative; boundary=\"b1\"");
}

TEST_CASE("quoted-printable and base64 bodies") {
  SUBCASE("quoted-printable UTF-8") {
    const auto email = parse(
        "Subject: qp\n"
        "Content-Type: text/plain; charset=UTF-8\n"
        "Content-Transfer-Encoding: quoted-printable\n"
        "\n"
        "Gr=C3=BC=C3=9Fe aus M=C3=BCnchen, bitte kli=\n"
        "cken Sie hier: a=3Db\n");
    REQUIRE(email.parts.size() == 1);
    CHECK(email.parts[0].text == "Grüße aus München, bitte klicken Sie hier: a=b\n");
  }
  SUBCASE("base64 HTML") {
    // "<a href=\"http://example.com/\">Hallo Welt</a>"
    const auto email = parse(
        "Subject: b64\n"
        "Content-Type: text/html; charset=\"utf-8\"\n"
        "Content-Transfer-Encoding: base64\n"
        "\n"
        "PGEgaHJlZj0iaHR0cDovL2V4YW1wbGUuY29tLyI+SGFsbG8gV2VsdDwvYT4=\n");
    REQUIRE(email.parts.size() == 1);
    CHECK(email.parts[0].type == EmailPart::Type::kHtml);
    CHECK(email.parts[0].text == "<a href=\"http://example.com/\">Hallo Welt</a>");
    CHECK(email.parts[0].size == email.parts[0].text.size());
  }
  SUBCASE("invalid and truncated base64 decodes as far as it goes") {
    const auto email = parse(
        "Content-Transfer-Encoding: base64\n"
        "\n"
        "SGVsbG8g!!V29y*bGQgZm9v\n"
        "YmFy");  // "Hello " + "World foo" with junk, then "bar"
    REQUIRE(email.parts.size() == 1);
    CHECK(email.parts[0].text.rfind("Hello World foo", 0) == 0);
    check_all_utf8(email);
  }
  SUBCASE("broken quoted-printable keeps the text") {
    const auto email = parse(
        "Content-Transfer-Encoding: quoted-printable\n"
        "\n"
        "price =XY 100=\n");
    REQUIRE(email.parts.size() == 1);
    CHECK(email.parts[0].text.rfind("price =XY 100", 0) == 0);
  }
}

TEST_CASE("RFC 2047 subject and From display name") {
  const auto email = parse(
      "From: =?UTF-8?B?SsO2cmcgTcO8bGxlcg==?= <joerg@example.de>\n"
      "Reply-To: =?ISO-8859-1?Q?J=F6rg_M=FCller?= <j@example.de>\n"
      "Sender: \"=?iso-8859-1?q?Bj=F6rn?=\" <b@example.de>\n"
      "Subject: =?utf-8?q?Ihre_Rechnung_f=C3=BCr?=\n"
      " =?ISO-8859-1?B?TeRyeg==?=\n"
      "X-Mixed: plain =?utf-8?B?4oKs?=10 text\n"
      "\n"
      "x\n");
  CHECK(value_of(email, "From") == "Jörg Müller <joerg@example.de>");
  CHECK(value_of(email, "Reply-To") == "Jörg Müller <j@example.de>");
  CHECK(value_of(email, "Sender") == "\"Björn\" <b@example.de>");
  // Adjacent encoded words join without the folding whitespace.
  CHECK(value_of(email, "Subject") == "Ihre Rechnung fürMärz");
  CHECK(value_of(email, "X-Mixed") == "plain €10 text");
}

TEST_CASE("unfolding and raw 8-bit header text") {
  const auto email = parse(
      "Subject: a long\n"
      "\tfolded subject\n"
      "X-Latin: caf\xE9 \x93quoted\x94\n"
      "X-Utf8: Stra\xC3\x9F"
      "e\n"
      "\n"
      "x\n");
  CHECK(value_of(email, "Subject") == "a long\tfolded subject");
  CHECK(value_of(email, "X-Latin") == "café “quoted”");
  CHECK(value_of(email, "X-Utf8") == "Straße");
  check_all_utf8(email);
}

TEST_CASE("unfold_header_value: as GMime unfolds, without its allocation per header") {
  CHECK(unfold_header_value("") == "");
  CHECK(unfold_header_value(" \t\r\n ") == "");
  CHECK(unfold_header_value(" a long\r\n\tfolded\r\n  value \r\n") == "a long\tfolded  value");
  CHECK(unfold_header_value("a\rb\nc") == "abc");
  CHECK(unfold_header_value("\va\f \x80") == "\va\f \x80");  // only blanks, tabs, CR, LF
  // As a header of a parsed mail.
  const auto email = parse("Subject:  one\r\n two\r\n\tthree \r\n\r\nx\r\n");
  CHECK(value_of(email, "Subject") == "one two\tthree");
}

TEST_CASE("body charsets are converted to UTF-8") {
  SUBCASE("ISO-8859-1") {
    const auto email = parse(
        "Content-Type: text/plain; charset=iso-8859-1\n\n"
        "Gr\xFC\xDF"
        "e, \xA3"
        "5\n");
    CHECK(email.parts.at(0).text == "Grüße, £5\n");
  }
  SUBCASE("windows-1252") {
    const auto email = parse(
        "Content-Type: text/plain; charset=\"windows-1252\"\n\n"
        "\x93Hi\x94 \x80"
        "5 \x85\n");
    CHECK(email.parts.at(0).text == "“Hi” €5 …\n");
  }
  SUBCASE("KOI8-R through GMime's charset filter") {
    const auto email = parse(
        "Content-Type: text/plain; charset=koi8-r\n\n"
        "\xF0\xD2\xC9\xD7\xC5\xD4\n");
    CHECK(email.parts.at(0).text == "Привет\n");
  }
  SUBCASE("declared us-ascii with 8-bit bytes is guessed") {
    const auto email = parse(
        "Content-Type: text/plain; charset=us-ascii\n\n"
        "caf\xE9\n");
    CHECK(email.parts.at(0).text == "café\n");
  }
  SUBCASE("no charset, valid UTF-8 stays UTF-8") {
    const auto email = parse(
        "Subject: x\n\nGr\xC3\xBC\xC3\x9F"
        "e\n");
    CHECK(email.parts.at(0).text == "Grüße\n");
  }
  SUBCASE("unknown charset falls back to Latin-1") {
    const auto email = parse(
        "Content-Type: text/plain; charset=x-no-such-charset\n\n"
        "caf\xE9\n");
    CHECK(email.parts.at(0).text == "café\n");
  }
  SUBCASE("declared UTF-8 with broken bytes gets U+FFFD") {
    const auto email = parse(
        "Content-Type: text/plain; charset=utf-8\n\n"
        "ok \xC3 then \xFF\xFE end\n");
    CHECK(email.parts.at(0).text == "ok \xEF\xBF\xBD then \xEF\xBF\xBD\xEF\xBF\xBD end\n");
  }
}

TEST_CASE("nested message/rfc822") {
  const auto email = parse(
      "From: outer@example.org\n"
      "Subject: Fwd: hello\n"
      "Content-Type: multipart/mixed; boundary=outer\n"
      "\n"
      "--outer\n"
      "Content-Type: text/plain\n"
      "\n"
      "See below.\n"
      "--outer\n"
      "Content-Type: message/rfc822\n"
      "\n"
      "From: inner@example.net\n"
      "Subject: hello\n"
      "Content-Type: multipart/alternative; boundary=inner\n"
      "\n"
      "--inner\n"
      "Content-Type: text/plain\n"
      "\n"
      "Inner text.\n"
      "--inner\n"
      "Content-Type: text/html\n"
      "\n"
      "<p>Inner html</p>\n"
      "--inner--\n"
      "--outer--\n");
  // The inner message's headers are not top-level headers.
  CHECK(value_of(email, "From") == "outer@example.org");
  CHECK(email.find("subject").size() == 1);
  REQUIRE(email.parts.size() == 3);
  CHECK(email.parts[0].location == "body");
  CHECK(email.parts[0].depth == 0);
  CHECK(email.parts[0].text == "See below.");
  CHECK(email.parts[1].location == "body#2");
  CHECK(email.parts[1].depth == 1);
  CHECK(email.parts[1].text == "Inner text.");
  CHECK(email.parts[2].location == "body:html");
  CHECK(email.parts[2].depth == 1);
  CHECK(email.text_of("body#2") == "Inner text.");
}

TEST_CASE("attachments") {
  const auto email = parse(
      "Subject: files\n"
      "Content-Type: multipart/mixed; boundary=zz\n"
      "\n"
      "--zz\n"
      "Content-Type: text/plain\n"
      "\n"
      "Please see the attached invoice.\n"
      "--zz\n"
      "Content-Type: application/octet-stream\n"
      "Content-Disposition: attachment;\n"
      " filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf.exe\n"
      "Content-Transfer-Encoding: base64\n"
      "\n"
      "TVqQAAMAAAAEAAAA//8AALgAAAAAAAAAQAAAAAAAAAA=\n"
      "--zz\n"
      "Content-Type: application/zip; name=\"=?utf-8?q?docs=2Ezip?=\"\n"
      "\n"
      "PK\x03\x04 zip bytes\n"
      "--zz\n"
      "Content-Type: application/pdf\n"
      "Content-Disposition: attachment; filename*0=\"a\"; filename*1=\"b.pdf\"\n"
      "\n"
      "%PDF-1.4\n"
      "--zz\n"
      "Content-Type: application/pdf\n"
      "Content-Disposition: attachment; filename=\"ab.pdf\"\n"
      "\n"
      "%PDF-1.5\n"
      "--zz\n"
      "Content-Type: image/png\n"
      "Content-Disposition: inline\n"
      "\n"
      "\x89PNG\n"
      "--zz\n"
      "Content-Type: text/html; name=page.html\n"
      "Content-Disposition: attachment\n"
      "\n"
      "<form><input type=password></form>\n"
      "--zz--\n");
  REQUIRE(email.parts.size() == 7);
  CHECK(email.parts[0].type == EmailPart::Type::kText);

  const auto& exe = email.parts[1];
  CHECK(exe.type == EmailPart::Type::kAttachment);
  CHECK(exe.content_type == "application/octet-stream");
  CHECK(exe.filename == "Rechnung März.pdf.exe");
  CHECK(exe.location == "attachment:Rechnung März.pdf.exe");
  CHECK(exe.head.substr(0, 2) == "MZ");
  CHECK(exe.size == 32);
  CHECK(exe.text.empty());
  CHECK(email.text_of("attachment:Rechnung März.pdf.exe") == "Rechnung März.pdf.exe");

  CHECK(email.parts[2].filename == "docs.zip");
  CHECK(email.parts[2].content_type == "application/zip");
  CHECK(email.parts[2].head.substr(0, 4) == std::string("PK\x03\x04", 4));

  // RFC 2231 continuations; a second attachment of the same name gets #2.
  CHECK(email.parts[3].filename == "ab.pdf");
  CHECK(email.parts[3].location == "attachment:ab.pdf");
  CHECK(email.parts[4].location == "attachment:ab.pdf#2");

  // No filename: named after its position.
  CHECK(email.parts[5].type == EmailPart::Type::kAttachment);
  CHECK(email.parts[5].filename.empty());
  CHECK(email.parts[5].location == "attachment:part6");

  // HTML attachments keep their text for the form checks.
  CHECK(email.parts[6].type == EmailPart::Type::kAttachment);
  CHECK(email.parts[6].location == "attachment:page.html");
  CHECK(email.parts[6].text == "<form><input type=password></form>");
  CHECK(email.parts[6].head == "<form><input type=password></form>");
  check_all_utf8(email);
}

TEST_CASE("a text part with a filename is an attachment") {
  const auto email = parse(
      "Content-Type: text/plain; charset=iso-8859-1\n"
      "Content-Disposition: inline; filename=\"notes.txt\"\n"
      "\n"
      "Gr\xFC\xDF"
      "e\n");
  REQUIRE(email.parts.size() == 1);
  CHECK(email.parts[0].type == EmailPart::Type::kAttachment);
  CHECK(email.parts[0].location == "attachment:notes.txt");
  CHECK(email.parts[0].head ==
        "Gr\xFC\xDF"
        "e\n");
  CHECK(email.parts[0].text == "Grüße\n");
  CHECK(email.parts[0].size == 6);
}

TEST_CASE("a leading mbox From line is skipped") {
  const auto email = parse(
      "From jose@monkey.org Mon Jan  1 00:00:00 2018\n"
      "From: Bank <support@bank.example>\n"
      "Subject: hi\n"
      "\n"
      "body\n");
  REQUIRE(email.headers.size() == 2);
  CHECK(email.headers[0].name == "From");
  CHECK(email.headers[0].value == "Bank <support@bank.example>");
  CHECK(email.headers[0].location() == "header:From");
  CHECK(email.parts.at(0).text == "body\n");
}

TEST_CASE("repeated headers get numbered locations") {
  const auto email = parse(
      "Received: from a by b; Mon, 1 Jan 2018 00:00:02 +0000\n"
      "received: from c by a; Mon, 1 Jan 2018 00:00:01 +0000\n"
      "RECEIVED: from d\n"
      "\tby c; Mon, 1 Jan 2018 00:00:00 +0000\n"
      "From: x@example.org\n"
      "\n"
      "x\n");
  auto received = email.find("Received");
  REQUIRE(received.size() == 3);
  CHECK(received[0]->location() == "header:Received#1");
  CHECK(received[1]->location() == "header:received#2");
  CHECK(received[2]->location() == "header:RECEIVED#3");
  CHECK(received[2]->occurrence == 3);
  CHECK(received[2]->count == 3);
  CHECK(received[2]->value == "from d\tby c; Mon, 1 Jan 2018 00:00:00 +0000");
  CHECK(email.text_of("header:received#2") == "from c by a; Mon, 1 Jan 2018 00:00:01 +0000");
  CHECK(email.text_of("header:Received").empty());
  CHECK(email.find("From").at(0)->location() == "header:From");
}

TEST_CASE("malformed messages are read like a mail client would") {
  SUBCASE("no headers at all") {
    const auto email = parse("Dear customer, your account is locked.\nClick here.\n");
    CHECK(email.headers.empty());
    REQUIRE(email.parts.size() == 1);
    CHECK(email.parts[0].type == EmailPart::Type::kText);
    CHECK(email.parts[0].location == "body");
    CHECK(email.parts[0].text == "Dear customer, your account is locked.\nClick here.\n");
  }
  SUBCASE("no blank line after the headers") {
    const auto email = parse(
        "From: a@example.org\n"
        "Subject: hi\n"
        "Your account is locked.\n"
        "Call now.\n");
    CHECK(email.headers.size() == 2);
    REQUIRE(email.parts.size() == 1);
    CHECK(email.parts[0].text == "Your account is locked.\nCall now.\n");
  }
  SUBCASE("a stray bad line between headers is skipped") {
    const auto email = parse(
        "From: a@example.org\n"
        "garbage line\n"
        "Content-Type: text/html\n"
        "\n"
        "<b>hi</b>\n");
    CHECK(email.headers.size() == 2);
    REQUIRE(email.parts.size() == 1);
    CHECK(email.parts[0].type == EmailPart::Type::kHtml);
  }
  // Header blocks whose every line is a header or a continuation are parsed
  // without GMime's warning callback; the others with it, to find the line
  // that ends them. Both kinds must read as before.
  SUBCASE("valid header blocks: blanks before the colon, folding, CRLF, an empty block") {
    const auto spaced = parse("Subject : hi\nX-Long: a\n\tb\n\nbody\n");
    CHECK(spaced.headers.size() == 2);
    REQUIRE(spaced.parts.size() == 1);
    CHECK(spaced.parts[0].text == "body\n");
    const auto crlf = parse("From: a@example.org\r\nSubject: hi\r\n\r\nbody\r\n");
    CHECK(crlf.headers.size() == 2);
    REQUIRE(crlf.parts.size() == 1);
    CHECK(crlf.parts[0].text.find("body") == 0);
    const auto no_headers = parse("\nonly a body\n");
    CHECK(no_headers.headers.empty());
    REQUIRE(no_headers.parts.size() == 1);
    CHECK(no_headers.parts[0].text == "only a body\n");
  }
  SUBCASE("the headers end at a line that is not one, however it fails") {
    for (const char* bad :
         {"a line with words: and a colon later\n", "ctrl\x01name: x\n", "\x01\n"}) {
      CAPTURE(std::string(bad));
      const auto email =
          parse(std::string("From: a@example.org\nSubject: hi\n") + bad + "Call now.\n");
      CHECK(email.headers.size() == 2);
      REQUIRE(email.parts.size() == 1);
      CHECK(email.parts[0].text.find("Call now.") != std::string::npos);
    }
  }
  SUBCASE("8-bit header names and folded lines are headers to GMime") {
    const auto umlaut = parse("From: a@example.org\n\xC3\x84rger: x\n\nbody\n");
    CHECK(umlaut.headers.size() == 2);
    const auto folded = parse("From: a@example.org\nSubject: hi\n more subject\n\nbody\n");
    REQUIRE(folded.headers.size() == 2);
    CHECK(folded.headers[1].value.find("more subject") != std::string::npos);
    REQUIRE(folded.parts.size() == 1);
    CHECK(folded.parts[0].text == "body\n");
  }
  SUBCASE("multipart without a boundary") {
    const auto email = parse(
        "Content-Type: multipart/mixed\n\n"
        "just text\n");
    REQUIRE(email.parts.size() == 1);
    CHECK(email.parts[0].type == EmailPart::Type::kText);
    CHECK(email.parts[0].text == "just text\n");
  }
  SUBCASE("multipart whose boundary never occurs is read as raw text") {
    const auto email = parse(
        "Content-Type: multipart/alternative; boundary=\"=Boundary 1\"\n\n"
        "--= Boundary 1\n"
        "Content-Type: text/plain\n\n"
        "Cheap printer cartridges\n");
    REQUIRE(email.parts.size() == 1);
    CHECK(email.parts[0].location == "body");
    CHECK(email.parts[0].text.find("Cheap printer cartridges") != std::string::npos);
  }
  SUBCASE("truncated multipart") {
    const auto email = parse(
        "Content-Type: multipart/mixed; boundary=q\n\n"
        "--q\n"
        "Content-Type: text/plain\n\n"
        "cut off here");
    REQUIRE(email.parts.size() == 1);
    CHECK(email.parts[0].text == "cut off here");
  }
  SUBCASE("headers only") {
    const auto email = parse("Subject: nothing else\n");
    CHECK(value_of(email, "Subject") == "nothing else");
    check_all_utf8(email);
  }
  SUBCASE("empty input is not a message") {
    CHECK_FALSE(parse_email("").ok());
    CHECK_FALSE(parse_email(" \r\n\n").ok());
    CHECK_FALSE(parse_email("From someone@example.org Mon Jan  1 00:00:00 2018\n").ok());
  }
}

TEST_CASE("garbage never crashes and always yields valid UTF-8") {
  const std::vector<std::string> inputs = {
      std::string("\0\0\0", 3),
      "\xFF\xFE\xFD\n\n\xC3",
      "From: \xC3\x28 <a@b>\nSubject: =?utf-8?B?/////w==?= =?bogus?Q?x?=\n\n\xE2\x82\n",
      "Content-Type: text/plain; charset=\"\xFF\"\nContent-Disposition: attachment; "
      "filename=\"\xFF\xFE.exe\"\n\nx",
      "Content-Type: multipart/mixed; boundary=\"\"\n\n--\n--\n",
      "Content-Type: message/rfc822\n\n\n\n",
      "Content-Transfer-Encoding: base64\n\n====\n",
      ":\n:\n: :\n\n",
      std::string(5000, '\n'),
      std::string(3000, ':'),
  };
  for (const auto& input : inputs) {
    auto result = parse_email(input);
    if (result.ok()) check_all_utf8(*result);
  }
}

TEST_CASE("a 64 KiB random blob") {
  std::mt19937 rng(42);
  for (int round = 0; round < 5; ++round) {
    std::string blob(64 * 1024, '\0');
    for (auto& c : blob) c = static_cast<char>(rng());
    auto result = parse_email(blob);
    REQUIRE(result.ok());
    check_all_utf8(*result);
    CHECK(result->parts.size() <= 200);
  }
}

TEST_CASE("hostile nesting is bounded") {
  SUBCASE("deep multiparts") {
    std::string raw;
    for (int i = 0; i < 2000; ++i) {
      raw += "Content-Type: multipart/mixed; boundary=b" + std::to_string(i) + "\n\n--b" +
             std::to_string(i) + "\n";
    }
    raw += "Content-Type: text/plain\n\ndeep\n";
    auto result = parse_email(raw);
    REQUIRE(result.ok());
    check_all_utf8(*result);
  }
  SUBCASE("deep message/rfc822") {
    std::string raw;
    for (int i = 0; i < 50; ++i) raw += "Subject: level\nContent-Type: message/rfc822\n\n";
    raw += "Subject: bottom\n\nbottom text\n";
    auto result = parse_email(raw);
    REQUIRE(result.ok());
    for (const auto& p : result->parts) CHECK(p.depth <= 10);
  }
  SUBCASE("many parts") {
    std::string raw = "Content-Type: multipart/mixed; boundary=m\n\n";
    for (int i = 0; i < 1000; ++i)
      raw += "--m\nContent-Type: text/plain\n\np" + std::to_string(i) + "\n";
    raw += "--m--\n";
    auto result = parse_email(raw);
    REQUIRE(result.ok());
    CHECK(result->parts.size() == 200);
    CHECK(result->parts[199].location == "body#200");
  }
  SUBCASE("a huge text part is capped at 1 MiB") {
    std::string raw = "Content-Type: text/plain; charset=windows-1252\n\n";
    raw += std::string(2 << 20, '\x80');  // each becomes the 3-byte euro sign
    auto result = parse_email(raw);
    REQUIRE(result.ok());
    const auto& text = result->parts.at(0).text;
    CHECK(text.size() <= (1u << 20));
    CHECK(text.size() > (1u << 20) - 3);
    CHECK(is_valid_utf8(text));
    CHECK(result->parts[0].size == (2u << 20));
  }
}

TEST_CASE("parsing in several threads at once") {
  const std::string raw =
      "From: =?ISO-8859-1?Q?J=F6rg?= <j@example.de>\n"
      "Subject: =?koi8-r?B?8NLJ18XU?=\n"
      "Content-Type: multipart/mixed; boundary=t\n"
      "\n"
      "--t\n"
      "Content-Type: text/plain; charset=koi8-r\n"
      "Content-Transfer-Encoding: base64\n"
      "\n"
      "8NLJ18XU\n"
      "--t\n"
      "Content-Type: text/html; charset=iso-8859-1\n"
      "Content-Transfer-Encoding: quoted-printable\n"
      "\n"
      "<p>Gr=FC=DFe</p>\n"
      "--t\n"
      "Content-Type: application/pdf; name=a.pdf\n"
      "\n"
      "%PDF\n"
      "--t--\n";
  const auto expected = parse(raw);
  REQUIRE(expected.parts.size() == 3);
  CHECK(expected.parts[0].text == "Привет");
  CHECK(expected.parts[1].text == "<p>Grüße</p>");
  CHECK(value_of(expected, "Subject") == "Привет");
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        auto result = parse_email(raw);
        if (!result.ok() || result->parts.size() != 3 ||
            result->parts[0].text != expected.parts[0].text ||
            result->parts[1].text != expected.parts[1].text ||
            result->headers[1].value != expected.headers[1].value) {
          ++mismatches;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(mismatches.load() == 0);
}

TEST_CASE("charset helpers") {
  CHECK(make_valid_utf8("abc") == "abc");
  CHECK(make_valid_utf8("a\x80z") == "a\xEF\xBF\xBDz");
  // A truncated 3-byte sequence is one maximal subpart.
  CHECK(make_valid_utf8("\xE2\x82z") == "\xEF\xBF\xBDz");
  // Surrogates and overlongs are ill-formed byte by byte.
  CHECK(make_valid_utf8("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(make_valid_utf8("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(make_valid_utf8("\xF0\x9F\x98\x80") == "\xF0\x9F\x98\x80");
  CHECK(windows1252_to_utf8("\x80\x81\xE9\xFF") ==
        "€\xC2\x81"
        "éÿ");
  CHECK(guess_to_utf8("caf\xC3\xA9") == "café");
  CHECK(guess_to_utf8("caf\xE9") == "café");
  CHECK(truncate_utf8("aé", 2) == "a");
  CHECK(truncate_utf8("aé", 3) == "aé");
  CHECK(truncate_utf8("abc", 10) == "abc");
}

TEST_CASE("windows-1252: every byte, the five undefined ones as C1 controls") {
  // 0x80..0x9F as Windows-1252 defines them; 0x81, 0x8D, 0x8F, 0x90 and 0x9D
  // are undefined and stay the C1 control of the same value.
  constexpr char32_t kHigh[32] = {0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                  0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
                                  0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                  0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
  std::string all, expected;
  for (int b = 0; b < 256; ++b) {
    all.push_back(static_cast<char>(b));
    const auto cp = static_cast<char32_t>(b);
    append_utf8(expected, b >= 0x80 && b < 0xA0 ? kHigh[b - 0x80] : cp);
  }
  CHECK(windows1252_to_utf8(all) == expected);
  CHECK(windows1252_to_utf8("") == "");
}
