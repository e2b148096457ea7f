// Unit tests of scamcheck-telegram-bot's pieces: reading Updates, the
// reply's HTML (escaping, Telegram's length limit) and the sendMessage body.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "bot.h"
#include "reply_format.h"
#include "update.h"

namespace tb = scamcheck::telegram_bot;
using scamcheck::Kind;

namespace {

// The reply with the bot's own tags removed: what is left must hold no
// '<', '>' or '"' (they would be markup), and every '&' starts an entity.
void check_escaped(std::string html) {
  for (std::string_view tag : {"<b>", "</b>", "<i>", "</i>", "<code>", "</code>"}) {
    for (std::size_t p = html.find(tag); p != std::string::npos; p = html.find(tag)) {
      html.erase(p, tag.size());
    }
  }
  CHECK(html.find('<') == std::string::npos);
  CHECK(html.find('>') == std::string::npos);
  CHECK(html.find('"') == std::string::npos);
  for (std::size_t p = html.find('&'); p != std::string::npos; p = html.find('&', p + 1)) {
    const std::string_view rest = std::string_view(html).substr(p);
    CHECK((rest.starts_with("&amp;") || rest.starts_with("&lt;") || rest.starts_with("&gt;") ||
           rest.starts_with("&quot;")));
  }
}

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    }
    i += n;
  }
  return true;
}

scamcheck::Report big_report(const std::string& evidence, int signals) {
  scamcheck::Report report;
  report.verdict = scamcheck::Verdict::kDanger;
  report.risk_score = 95;
  report.risk_text = "Dangerous <now>";
  report.summary_plain = "Summary with \"quotes\" & <tags>";
  for (int i = 0; i < signals; ++i) {
    scamcheck::Signal s;
    s.key = "threat";
    s.evidence = evidence;
    s.explanation = "Explanation " + std::to_string(i) + " <i>";
    report.signals.push_back(s);
  }
  for (int i = 0; i < 6; ++i) report.actions.push_back({"🚫", "Do not click & <pay>"});
  return report;
}

}  // namespace

TEST_CASE("html_escape escapes &, <, > and \"") {
  CHECK(tb::html_escape(R"(a<b>&"c")") == "a&lt;b&gt;&amp;&quot;c&quot;");
  CHECK(tb::html_escape("plain ümlaut") == "plain ümlaut");
}

TEST_CASE("utf16_units counts as Telegram does") {
  CHECK(tb::utf16_units("abc") == 3);
  CHECK(tb::utf16_units("ü") == 1);
  CHECK(tb::utf16_units("😀") == 2);
}

TEST_CASE("language_for: de* is German, anything else English, fallback without a code") {
  CHECK(tb::language_for("de", "en") == tb::Language::kGerman);
  CHECK(tb::language_for("de-AT", "en") == tb::Language::kGerman);
  CHECK(tb::language_for("DE", "en") == tb::Language::kGerman);
  CHECK(tb::language_for("dev", "en") == tb::Language::kEnglish);
  CHECK(tb::language_for("fr", "de") == tb::Language::kEnglish);
  CHECK(tb::language_for("", "de") == tb::Language::kGerman);
  CHECK(tb::language_for("", "en") == tb::Language::kEnglish);
  CHECK(tb::text(tb::Language::kGerman, tb::Text::kWhy) == "Warum");
}

TEST_CASE("format_report escapes everything and stays under 4096 UTF-16 units") {
  SUBCASE("many signals with long hostile evidence") {
    std::string evidence;
    for (int i = 0; i < 200; ++i) evidence += "<b>&\"x\"</b>";
    const std::string html =
        tb::format_report(big_report(evidence, 60), tb::Language::kEnglish, "from <somewhere>");
    CHECK(tb::utf16_units(html) <= tb::kMaxMessageUnits);
    CHECK(html.find("more signs") != std::string::npos);
    CHECK(html.find("<i>from &lt;somewhere&gt;</i>\n🔴 <b>Dangerous &lt;now&gt;</b>") == 0);
    check_escaped(html);
    CHECK(valid_utf8(html));
  }
  SUBCASE("emoji evidence is cut between characters") {
    std::string evidence;
    for (int i = 0; i < 2000; ++i) evidence += "😀";
    const std::string html = tb::format_report(big_report(evidence, 20), tb::Language::kGerman, "");
    CHECK(tb::utf16_units(html) <= tb::kMaxMessageUnits);
    CHECK(valid_utf8(html));
    CHECK(html.find("weitere Hinweise") != std::string::npos);
  }
  SUBCASE("a small report is shown whole") {
    const std::string html =
        tb::format_report(big_report("Verify \"now\"", 2), tb::Language::kEnglish, "");
    CHECK(html.find("“<code>Verify &quot;now&quot;</code>”") != std::string::npos);
    CHECK(html.find("more signs") == std::string::npos);
    CHECK(html.find("<b>What to do</b>") != std::string::npos);
    check_escaped(html);
  }
}

TEST_CASE("parse_update reads messages, photos and documents") {
  tb::IncomingMessage m;
  std::string error;
  SUBCASE("text from an edited message") {
    REQUIRE(
        tb::parse_update(
            R"({"update_id":7,"edited_message":{"message_id":3,"chat":{"id":-100,"type":"group"},)"
            R"("from":{"id":1,"language_code":"de"},"text":"hi"}})",
            m, error) == tb::UpdateKind::kMessage);
    CHECK(m.update_id == 7);
    CHECK(m.chat_id == -100);
    CHECK(m.message_id == 3);
    CHECK(m.chat_type == "group");
    CHECK(m.language_code == "de");
    CHECK(m.text == "hi");
    CHECK_FALSE(m.file);
  }
  SUBCASE("the largest photo size, and the caption") {
    REQUIRE(tb::parse_update(
                R"({"update_id":1,"message":{"message_id":1,"chat":{"id":5},"caption":"look",)"
                R"("photo":[{"file_id":"a","width":90,"height":90},)"
                R"({"file_id":"c","width":1280,"height":1280,"file_size":900},)"
                R"({"file_id":"b","width":320,"height":320}]}})",
                m, error) == tb::UpdateKind::kMessage);
    REQUIRE(m.file);
    CHECK(m.file->file_id == "c");
    CHECK(m.file->file_size == 900);
    CHECK(m.file->kind == Kind::kImage);
    CHECK(m.text == "look");
  }
  SUBCASE("documents by MIME type") {
    REQUIRE(tb::parse_update(
                R"({"update_id":1,"channel_post":{"message_id":1,"chat":{"id":5,"type":"channel"},)"
                R"("document":{"file_id":"d","mime_type":"application/pdf"}}})",
                m, error) == tb::UpdateKind::kMessage);
    REQUIRE(m.file);
    CHECK(m.file->kind == Kind::kDocument);
    REQUIRE(tb::parse_update(R"({"update_id":1,"message":{"message_id":1,"chat":{"id":5},)"
                             R"("document":{"file_id":"d","mime_type":"video/mp4"}}})",
                             m, error) == tb::UpdateKind::kMessage);
    CHECK_FALSE(m.file);
    CHECK(m.unsupported_media);
  }
  SUBCASE("links hidden behind words are added to the text") {
    REQUIRE(tb::parse_update(
                R"({"update_id":1,"message":{"message_id":1,"chat":{"id":5},)"
                R"("text":"Click here or https://a.example","entities":[)"
                R"({"type":"text_link","offset":0,"length":10,"url":"http://evil.top/x"},)"
                R"({"type":"url","offset":14,"length":17},)"
                R"({"type":"text_link","offset":0,"length":5,"url":"https://a.example"}]}})",
                m, error) == tb::UpdateKind::kMessage);
    CHECK(m.text == "Click here or https://a.example\nhttp://evil.top/x");
    REQUIRE(tb::parse_update(
                R"({"update_id":1,"message":{"message_id":1,"chat":{"id":5},"caption":"Win",)"
                R"("caption_entities":[{"type":"text_link","url":"http://prize.top"}],)"
                R"("photo":[{"file_id":"a","width":1,"height":1}]}})",
                m, error) == tb::UpdateKind::kMessage);
    CHECK(m.text == "Win\nhttp://prize.top");
  }
  SUBCASE("updates without a message, and bad ones") {
    CHECK(tb::parse_update(R"({"update_id":1,"poll":{}})", m, error) == tb::UpdateKind::kIgnored);
    CHECK(tb::parse_update("nope", m, error) == tb::UpdateKind::kBadRequest);
    CHECK(tb::parse_update("[1]", m, error) == tb::UpdateKind::kBadRequest);
    CHECK(tb::parse_update(R"({"update_id":1,"message":{"chat":{"id":1}}})", m, error) ==
          tb::UpdateKind::kBadRequest);
    CHECK(tb::parse_update(R"({"message":{}})", m, error) == tb::UpdateKind::kBadRequest);
  }
}

TEST_CASE("single URLs and commands") {
  CHECK(tb::is_single_url("  https://example.top/x \n"));
  CHECK(tb::is_single_url("www.example.com"));
  CHECK(tb::is_single_url("HTTP://EXAMPLE.COM"));
  CHECK_FALSE(tb::is_single_url("see https://example.top"));
  CHECK_FALSE(tb::is_single_url("https://"));
  CHECK_FALSE(tb::is_single_url("example.com"));
  CHECK(tb::command_of("/start") == "start");
  CHECK(tb::command_of("/Help@SomeBot now") == "help");
  CHECK(tb::command_of("hello /start").empty());
}

TEST_CASE("send_message_body") {
  CHECK(tb::send_message_body(-42, 7, "a \"b\"\n") ==
        R"({"chat_id":-42,"text":"a \"b\"\n","parse_mode":"HTML",)"
        R"("reply_parameters":{"message_id":7,"allow_sending_without_reply":true},)"
        R"("link_preview_options":{"is_disabled":true}})");
}
