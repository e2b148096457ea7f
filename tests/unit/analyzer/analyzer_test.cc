#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "analyzer_impl.h"
#include "scamcheck/scamcheck.h"

using scamcheck::Analyzer;
using scamcheck::Kind;
using scamcheck::StatusCode;
using scamcheck::Verdict;

namespace {
const Analyzer& analyzer() {
  static auto created = Analyzer::create();
  REQUIRE_MESSAGE(created.ok(), created.status().to_string());
  return **created;
}

void check_spans(const scamcheck::Report& r, std::string_view content) {
  for (const auto& s : r.signals) {
    INFO(s.key << " '" << s.evidence << "'");
    CHECK(s.location == "content");
    REQUIRE(s.span.end <= content.size());
    CHECK(s.span.start < s.span.end);
    CHECK(content.substr(s.span.start, s.span.end - s.span.start) == s.evidence);
    CHECK_FALSE(s.explanation.empty());
  }
}
}  // namespace

TEST_CASE("bad input is an error value, never a crash") {
  const Analyzer& a = analyzer();
  CHECK(a.analyze("", Kind::kText, "en").status().code() == StatusCode::kInvalidArgument);
  CHECK(a.analyze("  \n\t ", Kind::kText, "en").status().code() == StatusCode::kInvalidArgument);
  CHECK(a.analyze("\xC3\x28", Kind::kText, "en").status().code() == StatusCode::kInvalidArgument);
  CHECK(a.analyze(std::string(65537, 'a'), Kind::kText, "en").status().code() ==
        StatusCode::kOutOfRange);
  CHECK(a.analyze(std::string(65536, 'a'), Kind::kText, "en").ok());
  CHECK(a.analyze("hello", "nonsense", "en").status().code() == StatusCode::kInvalidArgument);
  CHECK(a.analyze("hello", static_cast<Kind>(42), "en").status().code() ==
        StatusCode::kInvalidArgument);
  // Not an image file: a clear error (tests/unit/decode_image has the rest).
  CHECK(a.analyze("hello", Kind::kImage, "en").status().code() == StatusCode::kInvalidArgument);
  CHECK(a.analyze(std::string("a\0b", 3), Kind::kText, "en").ok());
}

TEST_CASE("a report has the contract's shape") {
  const std::string text = "Hi, see you at 7 at the cinema?";
  auto r = analyzer().analyze(text, Kind::kText, "en");
  REQUIRE(r.ok());
  CHECK(r->id.rfind("rpt_", 0) == 0);
  CHECK(r->id.size() == 30);
  CHECK(r->kind == Kind::kText);
  CHECK(r->locale == "en");
  CHECK(r->verdict == Verdict::kSafe);
  CHECK(r->risk_score < 30);
  CHECK(r->confidence >= 0);
  CHECK(r->confidence <= 100);
  CHECK_FALSE(r->summary_plain.empty());
  CHECK(r->actions.size() >= 1);
  CHECK(r->actions.size() <= 4);
  CHECK(r->model_used == "heuristic-fallback");
  CHECK(r->input_tokens == 8);
  CHECK(r->output_tokens == 0);
  CHECK(r->created_at.back() == 'Z');
  CHECK_FALSE(r->extracted_text.has_value());
}

TEST_CASE("a safe verdict with weak signs names them instead of saying none were found") {
  // A child's "new number" without an ask: a sign, not enough on its own.
  const std::string text = "Hi mum, this is my new number, save it";
  auto r = analyzer().analyze(text, Kind::kText, "en");
  REQUIRE(r.ok());
  REQUIRE(r->verdict == Verdict::kSafe);
  REQUIRE_FALSE(r->signals.empty());
  CHECK(r->summary_plain.find("weak signs (a supposed relative") != std::string::npos);
  auto de = analyzer().analyze(text, Kind::kText, "de");
  REQUIRE(de.ok());
  CHECK(de->summary_plain.find("schwache Anzeichen") != std::string::npos);
  // Without any sign, the plain safe summary.
  auto none = analyzer().analyze("Hi, see you at 7 at the cinema?", Kind::kText, "en");
  REQUIRE(none.ok());
  REQUIRE(none->signals.empty());
  CHECK(none->summary_plain.find("no typical signs") != std::string::npos);
}

TEST_CASE("a data pack copied before weak-sign summaries existed still loads") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "scamcheck-pack-without-safe-with-signs";
  fs::remove_all(dir);
  fs::copy(SCAMCHECK_DATA_DIR, dir, fs::copy_options::recursive);
  for (const auto& file : fs::directory_iterator(dir / "locales")) {
    std::ifstream in(file.path());
    std::stringstream text;
    text << in.rdbuf();
    in.close();
    std::ofstream(file.path()) << std::regex_replace(
        text.str(), std::regex("\n *\"safe_with_signs\": \"[^\"]*\","), "");
  }
  auto created = Analyzer::create({.data_dir = dir.string()});
  REQUIRE_MESSAGE(created.ok(), created.status().to_string());
  auto r = (*created)->analyze("Hi mum, this is my new number, save it", Kind::kText, "en");
  REQUIRE(r.ok());
  REQUIRE_FALSE(r->signals.empty());
  CHECK(r->summary_plain.find("no typical signs") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a scam gets a warning with evidence, localized with fallback") {
  const std::string text =
      "Your account has been suspended. Confirm your password within 24 hours at "
      "http://paypal.com.secure-login.top/verify or it will be closed.";
  // Like Accept-Language: exact tag, then its language, then en.
  const std::pair<const char*, const char*> locales[] = {
      {"en", "en"}, {"de-AT", "de"}, {"fr-CA", "fr"}, {"pt-BR", "pt"}, {"es_MX", "es"},
      {"it", "it"}, {"NL-be", "nl"}, {"zz", "en"},    {"", "en"}};
  for (const auto& [locale, used] : locales) {
    INFO(locale);
    auto r = analyzer().analyze(text, Kind::kText, locale);
    REQUIRE(r.ok());
    CHECK(r->verdict == Verdict::kDanger);
    CHECK(r->locale == used);
    CHECK(r->signals.size() >= 2);
    CHECK(r->actions.size() >= 1);
    CHECK(r->actions.size() <= 4);
    CHECK(r->urls.size() == 1);
    check_spans(*r, text);
  }
  auto fr = analyzer().analyze(text, Kind::kText, "fr-CA");
  REQUIRE(fr.ok());
  CHECK(fr->risk_text == "Dangereux");
  CHECK(fr->summary_plain.find("arnaque") != std::string::npos);
}

TEST_CASE("urls: scheme optional, surrounding whitespace ignored") {
  for (const char* url : {"paypal.com.secure-login.top/verify", "  http://192.168.10.5/login  ",
                          "https://www.wikipedia.org/"}) {
    auto r = analyzer().analyze(url, Kind::kUrl, "en");
    REQUIRE(r.ok());
    CHECK(r->urls.size() == 1);
    check_spans(*r, url);
  }
}

TEST_CASE("urls on a brand's own site are judged by the rules; platforms and look-alikes are not") {
  // The post office's own tracking page: its brand name is what phishing
  // imitates most, which must not count against the real site.
  auto r = analyzer().analyze(
      "https://rastreamento.correios.com.br/app/index.php?objeto=QB1234567BR", Kind::kUrl, "en");
  REQUIRE(r.ok());
  CHECK(r->verdict == Verdict::kSafe);
  // Cloud storage anyone can publish on, and a look-alike, still warn.
  for (const char* url : {"https://mngi365-my.sharepoint.com/:b:/g/personal/x_example/EaBc1",
                          "https://correios.com.br.rastreio-objeto.top/app"}) {
    INFO(url);
    r = analyzer().analyze(url, Kind::kUrl, "en");
    REQUIRE(r.ok());
    CHECK(r->verdict != Verdict::kSafe);
  }
}

TEST_CASE("a url through a redirect is judged by where it leads, evidence as written") {
  // A trusted site in front, a look-alike behind it: as written and
  // percent-encoded, the destination's signs quote the input itself.
  for (const char* url :
       {"https://www.google.com/url?q=https://paypal.account-check.top/signin",
        "https://www.google.com/url?sa=t&url=https%3A%2F%2Fpaypal.account-check.top%2Fsignin",
        // Base64 of the destination, as Bing's click tracker writes it.
        "https://www.bing.com/ck/"
        "a?!&&p=9f3c&ptn=3&u=a1aHR0cHM6Ly9wYXlwYWwuYWNjb3VudC1jaGVjay50b3Av&ntb=1",
        "https://t.example-mail.com/c?id=7&r=aHR0cHM6Ly9wYXlwYWwuYWNjb3VudC1jaGVjay50b3Av"}) {
    INFO(url);
    auto r = analyzer().analyze(url, Kind::kUrl, "en");
    REQUIRE(r.ok());
    CHECK(r->verdict != Verdict::kSafe);
    REQUIRE(r->urls.size() == 2);
    CHECK(r->urls[1].registrable_domain == "account-check.top");
    CHECK(!r->signals.empty());
    check_spans(*r, url);
  }
  // An ordinary destination adds nothing to warn about; a redirect back to
  // the same site is no destination of its own.
  for (const char* url :
       {"https://l.facebook.com/l.php?u=https%3A%2F%2Fwww.wikipedia.org%2Fwiki%2FMain_Page&h=AT0",
        "https://accounts.google.com/ServiceLogin?continue=https://mail.google.com/mail/"}) {
    INFO(url);
    auto r = analyzer().analyze(url, Kind::kUrl, "en");
    REQUIRE(r.ok());
    CHECK(r->verdict == Verdict::kSafe);
  }
  auto r = analyzer().analyze(
      "https://accounts.google.com/ServiceLogin?continue=https://mail.google.com/mail/", Kind::kUrl,
      "en");
  REQUIRE(r.ok());
  CHECK(r->urls.size() == 1);
  // A value that decodes to bytes no URL holds is not reported as one.
  r = analyzer().analyze("https://www.google.com/url?q=https%3A%2F%2Fa%00b.example.top%2F%ff",
                         Kind::kUrl, "en");
  REQUIRE(r.ok());
  CHECK(r->urls.size() == 1);
}

TEST_CASE("every emitted finding key is in the glossary") {
  auto& impl = static_cast<const scamcheck::internal::AnalyzerImpl&>(analyzer());
  const char* samples[] = {
      "Hallo Mama, das ist meine neue Nummer. Kannst du mir schnell 1.200 € überweisen? "
      "IBAN DE89 3704 0044 0532 0130 00",
      "URGENT! You have won a £1000 prize. Call 09061701461 now. T&Cs apply, txt STOP to opt out",
      "Send 0.5 BTC to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq or I publish the video",
      "pаypal login: hxxps://paypal-secure[.]com/login and https://amaz0n.de.verify.xyz:8080/",
      "Install AnyDesk so our support can fix your bank account, give us the TAN",
  };
  for (const char* s : samples) {
    scamcheck::Report report;
    auto findings = impl.detect(s, Kind::kText, report);
    REQUIRE(findings.ok());
    for (const auto& f : *findings) {
      INFO(f.key);
      CHECK(impl.texts().find(f.key) != nullptr);
    }
  }
}

TEST_CASE("one analyzer is shared by many threads") {
  const Analyzer& a = analyzer();
  const std::string text =
      "Your parcel is on hold, pay the customs fee at http://dhl-paket.top/pay";
  auto expected = a.analyze(text, Kind::kText, "de");
  REQUIRE(expected.ok());
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        auto r = a.analyze(text, Kind::kText, "de");
        if (!r.ok() || r->risk_score != expected->risk_score ||
            r->signals.size() != expected->signals.size()) {
          ++mismatches;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(mismatches == 0);
}

TEST_CASE("a missing data directory is a clear error naming it") {
  auto created = Analyzer::create({.data_dir = "/nonexistent/scamcheck-data"});
  REQUIRE_FALSE(created.ok());
  CHECK(created.status().message().find("/nonexistent/scamcheck-data") != std::string::npos);
}

TEST_CASE("a reply: what it quotes is someone else's words") {
  scamcheck::Options options;
  options.use_model = false;
  auto created = Analyzer::create(options);
  REQUIRE_MESSAGE(created.ok(), created.status().to_string());
  const std::string quoted =
      "> I have recorded you visiting adult sites.\n"
      "> Pay or the video goes to all your contacts.\n";
  const std::string head =
      "From: Ann <ann@example.org>\r\nTo: bob@example.org\r\nDate: Mon, 1 Jul 2024 10:00:00 "
      "+0000\r\nMessage-ID: <1@example.org>\r\n";
  // Answering (In-Reply-To): the quoted lines weigh nothing.
  auto reply = (*created)->analyze(head +
                                       "Subject: Re: this spam\r\nIn-Reply-To: <0@example.org>\r\n"
                                       "\r\nBob wrote:\n" +
                                       quoted + "\nJust delete it, it is a known scam.\n",
                                   Kind::kEmail, "en");
  REQUIRE(reply.ok());
  CHECK(reply->verdict == Verdict::kSafe);
  // The same lines in a mail that answers nothing still count.
  auto fresh =
      (*created)->analyze(head + "Subject: your video\r\n\r\n" + quoted, Kind::kEmail, "en");
  REQUIRE(fresh.ok());
  CHECK(fresh->verdict != Verdict::kSafe);
}

TEST_CASE("one strong sign is enough, with the model or without, and the summary says why") {
  static auto rules_only = Analyzer::create(scamcheck::Options{.use_model = false});
  REQUIRE(rules_only.ok());
  struct Case {
    const char* text;
    const char* locale;
    const char* note;  // a piece of the catalog's "strong_sign" sentence
  };
  for (const Case& c : {
           Case{"send me your bank PIN now urgently", "en", "reason enough to be careful"},
           Case{"Your electricity will be disconnected tonight at 9pm due to unpaid bill. Call "
                "01632 960183 now to pay",
                "en", "reason enough to be careful"},
           Case{"Schick mir sofort deine Bank-PIN, es ist dringend", "de", "Grund genug"},
           Case{"Ihr Strom wird heute um 21 Uhr wegen einer offenen Rechnung abgeschaltet. Rufen "
                "Sie jetzt an, um zu zahlen",
                "de", "Grund genug"},
       }) {
    for (const Analyzer* a : {&analyzer(), static_cast<const Analyzer*>(rules_only->get())}) {
      INFO(c.text);
      auto r = a->analyze(c.text, Kind::kText, c.locale);
      REQUIRE(r.ok());
      CHECK(r->verdict != Verdict::kSafe);
      CHECK(r->risk_score >= 30);
      CHECK(r->summary_plain.find(c.note) != std::string::npos);
      REQUIRE_FALSE(r->signals.empty());
      CHECK(r->signals.front().severity == scamcheck::Severity::kHigh);
      check_spans(*r, c.text);
    }
  }
  // Look-alikes that tell you to keep such things to yourself stay safe.
  for (const char* text : {
           "Never share your PIN with anyone, not even with us.",
           "Your bill is ready. £48.10 will be collected by Direct Debit on 2 June.",
           "Your verification code is 402913. Do not share it with anyone.",
           "Geben Sie Ihre PIN niemals weiter, auch nicht an uns.",
           "Ihre Rechnung ist da. Der Betrag von 48,10 € wird am 2. Juni per Lastschrift "
           "eingezogen.",
       }) {
    INFO(text);
    auto r = analyzer().analyze(text, Kind::kText, "en");
    REQUIRE(r.ok());
    CHECK(r->verdict == Verdict::kSafe);
  }
}

TEST_CASE("a text reads the same before and after a mail and a text with underscores") {
  // One normalization serves the rules and the model when it spaced no
  // underscore, and each thread reuses its feature set: neither may carry
  // anything from one input to the next.
  const std::string text =
      "URGENT: your parcel is held. Pay the $1.99 fee at https://parcel-help.example.top/pay now";
  const auto summary = [](const scamcheck::Report& r) {
    std::string out = std::to_string(r.risk_score) + "/" + std::to_string(r.confidence) + ":";
    for (const auto& s : r.signals) {
      out += s.key + "@" + std::to_string(s.span.start) + "-" + std::to_string(s.span.end) + ";";
    }
    return out;
  };
  auto before = analyzer().analyze(text, Kind::kText, "en");
  REQUIRE(before.ok());
  auto mail = analyzer().analyze(
      "From: Bank <alerts@bank.example>\r\nTo: you@example.org\r\nSubject: Verify now\r\n\r\n"
      "Dear customer, verify your account at http://bank-verify.example.xyz/login today.\r\n",
      Kind::kEmail, "en");
  REQUIRE(mail.ok());
  auto spaced = analyzer().analyze("You_have_won a_prize claim_now at http://x.example.top/a_b",
                                   Kind::kText, "en");
  REQUIRE(spaced.ok());
  auto after = analyzer().analyze(text, Kind::kText, "en");
  REQUIRE(after.ok());
  CHECK(summary(*after) == summary(*before));
  CHECK(after->summary_plain == before->summary_plain);
}

TEST_CASE("a bare small sum is context: it counts only next to a real sign") {
  auto& impl = static_cast<const scamcheck::internal::AnalyzerImpl&>(analyzer());
  const auto sum_found = [&](std::string_view text, std::string_view sum) {
    scamcheck::Report report;
    auto findings = impl.detect(text, Kind::kText, report);
    REQUIRE(findings.ok());
    const std::size_t at = text.find(sum);
    REQUIRE(at != std::string_view::npos);
    return std::any_of(findings->begin(), findings->end(), [&](const auto& f) {
      return f.key == "payment_request" && f.start <= at && f.end >= at + sum.size();
    });
  };
  // A balance, a receipt, a refund: a small sum and nothing else to warn about.
  CHECK_FALSE(
      sum_found("Your remaining balance of £3.75 stays on your account after you leave.", "£3.75"));
  CHECK_FALSE(sum_found("Kassenbon: 2 Brötchen, 1 Kaffee, Summe 4,80 €. Danke!", "4,80 €"));
  // Beside a threat it is part of the demand.
  CHECK(sum_found("Your account will be suspended today unless you settle £1.99 immediately.",
                  "£1.99"));
}

TEST_CASE("a file on the recipient's own SharePoint is no free hosting; a stranger's is") {
  auto mail = [](std::string_view to) {
    return "From: Mark Collins <no-reply@sharepointonline.com>\r\nTo: Dennis <" + std::string(to) +
           ">\r\nSubject: Mark shared \"Q1 figures\" with you\r\n\r\n"
           "Mark shared a file with you: "
           "https://acmeaudit.sharepoint.com/:x:/s/Finance/EZt7c2bQ1zNJl0x9uVwKm3s?e=h7Kf3D\r\n";
  };
  auto hosting = [](const scamcheck::Report& r) {
    return std::count_if(r.signals.begin(), r.signals.end(),
                         [](const auto& s) { return s.key == "free_hosting"; });
  };
  for (std::string_view own : {"dennis@acme-audit.com", "dennis@acmeaudit.co.uk"}) {
    auto r = analyzer().analyze(mail(own), Kind::kEmail, "en");
    REQUIRE(r.ok());
    CHECK_MESSAGE(hosting(*r) == 0, own);
  }
  auto stranger = analyzer().analyze(mail("dennis@example.org"), Kind::kEmail, "en");
  REQUIRE(stranger.ok());
  CHECK(hosting(*stranger) == 1);
}

namespace {

// The header the receiving server `mx` writes for mail from `domain`: SPF
// and DKIM passed, DMARC as given.
std::string auth_results(std::string_view mx, std::string_view domain, std::string_view dmarc) {
  const std::string d(domain);
  return "Authentication-Results: " + std::string(mx) + "; spf=pass smtp.mailfrom=" + d +
         ";\r\n dkim=pass header.d=" + d + "; dmarc=" + std::string(dmarc) + " header.from=" + d +
         "\r\n";
}

}  // namespace

TEST_CASE("a colleague's verified mail is judged as what it says; a stranger's or a spoof is not") {
  // The organisation's own IT reminding of a password expiry, linking to
  // its own intranet: from the recipient's domain, DMARC passed.
  auto mail = [](std::string_view dmarc, std::string_view to) {
    return auth_results("mx.contoso.com", "contoso.com", dmarc) +
           "From: IT Service Desk <servicedesk@contoso.com>\r\nTo: Paula <" + std::string(to) +
           ">\r\nSubject: Your network password expires in 3 days\r\n\r\n"
           "Hello Paula,\r\n\r\nYour network password expires in 3 days. Please change it "
           "before then on the self-service password page of the intranet:\r\n"
           "https://intranet.contoso.com/password/change\r\n\r\nIf your password expires "
           "you will not be able to log in until the service desk resets it.\r\n";
  };
  auto colleague = analyzer().analyze(mail("pass", "paula@contoso.com"), Kind::kEmail, "en");
  REQUIRE(colleague.ok());
  CHECK(colleague->verdict == Verdict::kSafe);
  for (auto [dmarc, to] :
       {std::pair{"fail", "paula@contoso.com"}, std::pair{"pass", "paula@example.org"}}) {
    auto r = analyzer().analyze(mail(dmarc, to), Kind::kEmail, "en");
    REQUIRE(r.ok());
    CHECK_MESSAGE(r->verdict != Verdict::kSafe, dmarc, " ", to);
  }
}

TEST_CASE("a verified share on the recipient's own SharePoint is judged by the rules alone") {
  // SharePoint's notification of a colleague's share: sent by Microsoft
  // (DMARC passed), linking to the organisation's own SharePoint and to
  // Microsoft's privacy page.
  auto mail = [](std::string_view dmarc, std::string_view to, std::string_view extra_link) {
    return auth_results("mx.acme-audit.com", "sharepointonline.com", dmarc) +
           "From: Mark Collins <no-reply@sharepointonline.com>\r\nTo: Dennis <" + std::string(to) +
           ">\r\nSubject: Mark Collins shared \"Q1 figures\" with you\r\n\r\n"
           "Mark Collins shared a file with you\r\n\r\nHere are the Q1 figures we went "
           "through this morning.\r\n\r\nOpen: "
           "https://acmeaudit.sharepoint.com/:x:/s/Finance/EZt7c2bQ1zNJl0x9uVwKm3s?e=h7Kf3D\r\n" +
           std::string(extra_link) +
           "\r\nPrivacy Statement: https://go.microsoft.com/fwlink/?LinkId=521839\r\n";
  };
  auto& impl = static_cast<const scamcheck::internal::AnalyzerImpl&>(analyzer());
  auto stays_home = [&](const std::string& raw) {
    scamcheck::Report report;
    scamcheck::internal::MailSender sender;
    REQUIRE(impl.detect(raw, Kind::kEmail, report, nullptr, nullptr, &sender).ok());
    return sender.links_stay_home;
  };
  const std::string own = mail("pass", "dennis@acme-audit.com", "");
  CHECK(stays_home(own));
  auto r = analyzer().analyze(own, Kind::kEmail, "en");
  REQUIRE(r.ok());
  CHECK(r->verdict == Verdict::kSafe);
  // Not when DMARC failed, when the tenant is another organisation's, or
  // when a link leads elsewhere.
  CHECK_FALSE(stays_home(mail("fail", "dennis@acme-audit.com", "")));
  CHECK_FALSE(stays_home(mail("pass", "dennis@northwind-traders.com", "")));
  CHECK_FALSE(stays_home(
      mail("pass", "dennis@acme-audit.com", "Sign in to view: https://acme-audit-docs.top/view")));
  // A colleague's meeting invitation links to the meeting service alone.
  auto invitation = [](std::string_view from, std::string_view link =
                                                  "https://teams.microsoft.com/l/meetup-join/"
                                                  "19%3ameeting_NzQ") {
    return auth_results("mx.acme-audit.com", "acme-audit.com", "pass") + "From: Mark Collins <" +
           std::string(from) +
           ">\r\nTo: Dennis <dennis@acme-audit.com>\r\nSubject: Q1 review\r\n\r\n"
           "Join the meeting: " +
           std::string(link) + "\r\n";
  };
  CHECK(stays_home(invitation("mark.collins@acme-audit.com")));
  CHECK_FALSE(stays_home(invitation("mark.collins@acme-audits.com")));
  // A form anyone can make on an open platform, sent from a colleague's
  // (perhaps stolen) account: the model still reads it.
  CHECK_FALSE(stays_home(invitation("mark.collins@acme-audit.com",
                                    "https://docs.google.com/forms/d/e/1FAIpQLSf3kX/viewform")));
}

namespace {

// No evidence the model adds (a link's pattern or wording) quotes `host`.
void check_model_never_quotes(const scamcheck::Report& r, std::string_view host) {
  for (const auto& s : r.signals) {
    if (s.key != "suspicious_url_pattern" && s.key != "suspicious_wording") continue;
    INFO(s.evidence);
    CHECK(s.evidence.find(host) == std::string::npos);
  }
}

}  // namespace

TEST_CASE("the model never quotes a link to a brand's own site as looking like phishing") {
  // A lure sent from elsewhere that names the brand's real address: the
  // warning stands, its evidence is the lure's words and sender.
  const std::string mail =
      "From: Service <service@mail-notice.top>\r\nTo: you@example.org\r\n"
      "Subject: Account notice\r\n\r\n"
      "Dear PayPal member, we noticed unusual activity. Log in at "
      "https://www.paypal.com/signin to confirm your identity or your account will be "
      "limited.\r\n";
  auto r = analyzer().analyze(mail, Kind::kEmail, "en");
  REQUIRE(r.ok());
  CHECK(r->verdict != Verdict::kSafe);
  check_model_never_quotes(*r, "paypal.com");
}

TEST_CASE("a brand's own host at the end of a sentence is still the brand's own link") {
  // The full stop after a bare host is not part of it. A national CERT's
  // warning about sextortion mails, with its reporting site: the model may
  // find the words, but never its own site phishing.
  const std::string text =
      "CERT Polska ostrzega: oszuści wysyłają maile, że mają nagrania z Twojej kamery, i "
      "żądają okupu w BTC. To blef – nie płać, a wiadomość zgłoś na incydent.cert.pl.";
  auto r = analyzer().analyze(text, Kind::kText, "pl");
  REQUIRE(r.ok());
  check_model_never_quotes(*r, "cert.pl");
}

TEST_CASE("the model's word evidence never quotes a brand's own link either") {
  // The phrase "at paypal.com" holds the link.
  const std::string text =
      "URGENT: your PayPal account is limited due to unusual activity, confirm your identity "
      "now or it will be closed. Log in at paypal.com.";
  auto r = analyzer().analyze(text, Kind::kText, "en");
  REQUIRE(r.ok());
  CHECK(r->verdict != Verdict::kSafe);
  check_model_never_quotes(*r, "paypal.com");
}

TEST_CASE("a link to check that runs a script or carries a page is at least suspicious") {
  for (std::string_view url : {"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
                               "javascript:void(document.location='https://example.org')"}) {
    auto r = analyzer().analyze(url, Kind::kUrl, "en");
    REQUIRE(r.ok());
    CHECK_MESSAGE(r->verdict != Verdict::kSafe, url);
    CHECK(std::any_of(r->signals.begin(), r->signals.end(),
                      [](const auto& s) { return s.key == "script_url"; }));
  }
}
