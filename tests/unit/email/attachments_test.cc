// AttachmentChecker: dangerous types, double extensions, archive lures and
// archive passwords, each quoting the file name or the body verbatim.
#include "email/attachments.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "util/text.h"

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

const AttachmentChecker& checker() {
  static const std::unique_ptr<AttachmentChecker> c = [] {
    auto loaded = AttachmentChecker::load(DataSource(SCAMCHECK_DATA_DIR));
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().to_string());
    return std::move(loaded.value());
  }();
  return *c;
}

EmailPart attachment(std::string filename, std::string head = "",
                     std::string content_type = "application/octet-stream") {
  EmailPart p;
  p.type = EmailPart::Type::kAttachment;
  p.content_type = std::move(content_type);
  p.location = "attachment:" + filename;
  p.filename = std::move(filename);
  p.head = std::move(head);
  p.size = p.head.size();
  return p;
}

EmailPart body(std::string text, bool html = false) {
  EmailPart p;
  p.type = html ? EmailPart::Type::kHtml : EmailPart::Type::kText;
  p.content_type = html ? "text/html" : "text/plain";
  p.location = html ? "body:html" : "body";
  p.text = std::move(text);
  p.size = p.text.size();
  return p;
}

struct Outcome {
  std::multimap<std::string, std::string> evidence;  // key -> evidence
  std::map<std::string, double> strength;            // key -> strongest
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
  bool empty() const { return evidence.empty(); }
};

// Runs the checker and checks that every span quotes its location's text.
Outcome run(const std::vector<EmailPart>& parts) {
  ParsedEmail email;
  email.parts = parts;
  Findings fs;
  checker().check(email, fs);
  Outcome o;
  for (const Finding& f : fs) {
    const EmailPart* part = nullptr;
    for (const EmailPart& p : parts) {
      if (p.location == f.location) part = &p;
    }
    REQUIRE_MESSAGE(part != nullptr, f.location);
    const std::string& text =
        part->type == EmailPart::Type::kAttachment ? part->filename : part->text;
    REQUIRE(f.start < f.end);
    REQUIRE(f.end <= text.size());
    CHECK(f.strength > 0);
    CHECK(f.strength <= 1.0);
    std::string ev = text.substr(f.start, f.end - f.start);
    CHECK(is_valid_utf8(ev));
    o.evidence.emplace(f.key, ev);
    o.strength[f.key] = std::max(o.strength[f.key], f.strength);
  }
  return o;
}

Outcome run_one(const EmailPart& p) { return run({p}); }

// A ZIP local file header for `name` followed by `data`.
std::string zip_with(const std::string& name, const std::string& data = "x") {
  std::string h("PK\x03\x04", 4);
  h += std::string("\x14\x00\x00\x00\x00\x00\x00\x00\x00\x00", 10);  // version .. date
  h += std::string("\x00\x00\x00\x00", 4);                           // crc
  auto u32 = [](std::size_t v) {
    return std::string{static_cast<char>(v & 0xFF), static_cast<char>((v >> 8) & 0xFF),
                       static_cast<char>((v >> 16) & 0xFF), static_cast<char>((v >> 24) & 0xFF)};
  };
  h += u32(data.size()) + u32(data.size());
  h += static_cast<char>(name.size() & 0xFF);
  h += static_cast<char>(name.size() >> 8);
  h += std::string("\x00\x00", 2);  // extra length
  return h + name + data;
}

const std::string kMz = [] {
  std::string h(0x80, '\0');
  h[0] = 'M';
  h[1] = 'Z';
  h[0x3c] = 0x40;
  h.replace(0x40, 4, std::string("PE\0\0", 4));
  return h;
}();

}  // namespace

TEST_CASE("dangerous_attachment: programs, scripts, shortcuts, disk images, macros") {
  for (const char* name :
       {"setup.exe", "Rechnung.JS", "update.vbs", "info.hta", "run.ps1", "Dokument.lnk",
        "Lieferschein.iso", "disk.img", "tool.msi", "notes.one", "app.jar", "screen.SCR"}) {
    INFO(name);
    Outcome o = run_one(attachment(name));
    CHECK(o.all("dangerous_attachment") == std::vector<std::string>{name});
    CHECK_FALSE(o.has("double_extension"));
  }
  Outcome o = run_one(attachment("Bericht_Q3.docm"));
  CHECK(o.first("dangerous_attachment") == "Bericht_Q3.docm");
  CHECK(o.strength["dangerous_attachment"] < 1.0);
  // A path before the name is not quoted.
  o = run_one(attachment("C:\\Users\\anna\\bad.js"));
  CHECK(o.first("dangerous_attachment") == "bad.js");
}

TEST_CASE("attachments of ordinary mail give no findings") {
  for (const char* name : {"invoice.pdf", "Rechnung_2024.pdf", "photo.jpg", "Protokoll.docx",
                           "signature.asc", "smime.p7s", "invite.ics", "holiday_photos.zip",
                           "report.final.pdf", "v1.2.3-notes.txt", "data.tar.gz", "", "README"}) {
    INFO(name);
    CHECK(run_one(attachment(name)).empty());
  }
  // A .docx is a ZIP container: its signature is expected.
  CHECK(run_one(attachment("Vertrag.docx", zip_with("[Content_Types].xml"))).empty());
  CHECK(run_one(attachment("Bestellung.xlsx", zip_with("[Content_Types].xml"))).empty());
}

TEST_CASE(
    "double_extension: hidden real extensions, padding, bidi controls, contradicting content") {
  Outcome o = run_one(attachment("invoice.pdf.exe"));
  CHECK(o.first("dangerous_attachment") == "invoice.pdf.exe");
  CHECK(o.first("double_extension") == ".pdf.exe");

  o = run_one(attachment("scan.jpg            .scr"));
  CHECK(o.first("double_extension") == ".jpg            .scr");

  o = run_one(attachment("Kontoauszug_Mai                        .exe"));
  CHECK(o.first("double_extension") == "                        .exe");

  // U+202E RIGHT-TO-LEFT OVERRIDE: shown as "Rechnungexe.pdf".
  o =
      run_one(attachment("Rechnung\xE2\x80\xAE"
                         "fdp.exe"));
  CHECK(o.first("double_extension") ==
        "\xE2\x80\xAE"
        "fdp.exe");
  CHECK(o.first("dangerous_attachment") ==
        "Rechnung\xE2\x80\xAE"
        "fdp.exe");

  // Web pages posing as documents.
  o = run_one(attachment("Zahlung.pdf.html"));
  CHECK(o.first("double_extension") == ".pdf.html");

  // An archive behind a document name: weaker, and a lure by its name.
  o = run_one(attachment("Rechnung.pdf.zip"));
  CHECK(o.first("double_extension") == ".pdf.zip");
  CHECK(o.strength["double_extension"] < 1.0);
  CHECK(o.first("archive_lure") == "Rechnung.pdf.zip");

  // Content that contradicts a harmless extension.
  o = run_one(attachment("document.pdf", kMz));
  CHECK(o.first("dangerous_attachment") == "document.pdf");
  CHECK(o.first("double_extension") == ".pdf");
  o = run_one(attachment("photo.jpg", zip_with("photo.jpg.vbs")));
  CHECK(o.first("double_extension") == ".jpg");
  CHECK(o.first("dangerous_attachment") == "photo.jpg");
}

TEST_CASE("dangerous_attachment: Internet shortcuts by where they lead") {
  auto shortcut = [](std::string_view target, std::string_view extra = "") {
    return "[InternetShortcut]\r\nURL=" + std::string(target) + "\r\n" + std::string(extra);
  };
  // To a file share, a local file or a program: what malware waves send.
  for (const char* target : {"file://198.51.100.7/share/Rechnung.exe", "\\\\198.51.100.7\\s\\a.lnk",
                             "search-ms:query=invoice&crumb=location:\\\\198.51.100.7",
                             "https://x.example/setup.exe", "http://x.example/dl/update.js?id=1"}) {
    INFO(target);
    Outcome o = run_one(attachment("Rechnung.url", shortcut(target)));
    CHECK(o.first("dangerous_attachment") == "Rechnung.url");
    CHECK(o.strength["dangerous_attachment"] == 1.0);
  }
  // An icon fetched from a share leaks the reader's Windows credentials.
  Outcome o = run_one(
      attachment("Info.url", shortcut("https://x.example/", "IconFile=\\\\198.51.100.7\\i.ico")));
  CHECK(o.strength["dangerous_attachment"] == 1.0);
  // A bookmark of a web page weighs like a link; unreadable content keeps
  // the listed strength.
  for (const char* target : {"http://www.english.upenn.edu/~afilreis/50s/schleslib.html",
                             "https://example.com", "https://example.com/a/b?x=1.exe"}) {
    INFO(target);
    o = run_one(attachment("Liberalism in America.url", shortcut(target)));
    CHECK(o.first("dangerous_attachment") == "Liberalism in America.url");
    CHECK(o.strength["dangerous_attachment"] < 0.5);
  }
  o = run_one(attachment("Rechnung.url"));
  CHECK(o.strength["dangerous_attachment"] >= 0.8);
}

TEST_CASE("dangerous_attachment: a program inside a ZIP archive") {
  Outcome o = run_one(attachment("Lieferschein_0815.zip", zip_with("Lieferschein.lnk")));
  CHECK(o.first("dangerous_attachment") == "Lieferschein_0815.zip");
  o = run_one(attachment("files.zip", zip_with("docs/readme.txt")));
  CHECK(o.empty());
}

TEST_CASE("dangerous_attachment: web pages with forms or redirects") {
  EmailPart page = attachment("Remittance.html", "", "text/html");
  page.text =
      "<html><body><p>Sign in to view the document</p><form action=\"https://x.example/p\" "
      "method=post><input name=email><input type=password name=pw></form></body></html>";
  page.head = page.text.substr(0, 64);
  CHECK(run_one(page).first("dangerous_attachment") == "Remittance.html");

  page.text = "<html><head><meta http-equiv=\"refresh\" content=\"0;url=https://x.example\">";
  CHECK(run_one(page).has("dangerous_attachment"));

  page.text = "<script>window.location.href = atob('aHR0cHM6Ly94LmV4YW1wbGU=')</script>";
  CHECK(run_one(page).has("dangerous_attachment"));

  // Without the full text, the first bytes are checked.
  page.text.clear();
  page.head = "<html><body><form method=post action=\"https://x.example\"><input type=password>";
  CHECK(run_one(page).has("dangerous_attachment"));

  // A receipt saved as a web page is fine, scripts that stay on the page too.
  page.text =
      "<html><body><p>Store location: Main St.</p><script>document.title = 'Receipt';"
      "</script></body></html>";
  CHECK(run_one(page).empty());
  page.head.clear();
  page.text = "<html><body><h1>Receipt</h1><p>Thank you for your order.</p></body></html>";
  CHECK(run_one(page).empty());
}

TEST_CASE("archive_lure: archives named as invoices, orders, payments, documents") {
  for (const char* name :
       {"Rechnung_2024-05.zip", "invoices.rar", "scan0001.7z", "Zahlungserinnerung.zip",
        "PO-4471.zip", "Order_Confirmation.gz", "Bestellung 12345.ZIP", "Mahnung.r00"}) {
    INFO(name);
    Outcome o = run_one(attachment(name));
    CHECK(o.all("archive_lure") == std::vector<std::string>{name});
  }
  for (const char* name : {"holiday_photos.zip", "scanner_manual.zip", "backup.tar", "Rechnung.pdf",
                           "Bilder_Sommerfest.7z"}) {
    INFO(name);
    CHECK_FALSE(run_one(attachment(name)).has("archive_lure"));
  }
  // An archive recognised by its content.
  CHECK(run_one(attachment("Rechnung_4711", std::string("Rar!\x1A\x07\x01\x00", 8)))
            .first("archive_lure") == "Rechnung_4711");
}

TEST_CASE("archive_password: a password for the attached archive in the body") {
  EmailPart zip = attachment("Unterlagen.zip", zip_with("Unterlagen.pdf"));
  Outcome o = run({body("Hallo,\nanbei die Unterlagen. Das Passwort f\xC3\xBCr den Anhang "
                        "lautet: Rg2024\nGr\xC3\xBC\xC3\x9F"
                        "e"),
                   zip});
  CHECK(o.all("archive_password") ==
        std::vector<std::string>{"Passwort f\xC3\xBCr den Anhang lautet: Rg2024"});

  o = run({body("Please find the invoice attached. The password to open the file is 1234."), zip});
  CHECK(o.first("archive_password") == "password to open the file is 1234");

  o = run({body("<p>Archive password: <b>7788</b></p>", true), zip});
  CHECK(o.first("archive_password") == "password: <b>7788");

  o = run({body("<p>Ihr Anhang (ZIP), Kennwort:&nbsp;&quot;abc99&quot;</p>", true), zip});
  CHECK(o.first("archive_password") == "Kennwort:&nbsp;&quot;abc99");

  // Not without an archive, not without archive words, not for other words.
  CHECK_FALSE(run({body("Your password: 1234 (for the attached file)")}).has("archive_password"));
  CHECK_FALSE(run({body("Your new password: Xy12345 - log in at our website"), zip})
                  .has("archive_password"));
  CHECK_FALSE(run({body("A password is required to open the attached file."), zip})
                  .has("archive_password"));
  CHECK_FALSE(run({body("<input type=\"password\" name=\"pw1\"> attached zip", true), zip})
                  .has("archive_password"));
}

TEST_CASE("file names are split the way Windows shows them") {
  FileName f = split_file_name("dir/Scan.PDF .exe. ");
  CHECK(f.base == 4);
  CHECK(f.ext == "exe");
  CHECK(f.inner == "pdf");
  CHECK(f.end == 17);
  f = split_file_name("noext");
  CHECK(f.ext.empty());
  CHECK(f.ext_dot == std::string::npos);
  f = split_file_name("a\xC2\xA0\xC2\xA0\xC2\xA0.js");
  CHECK(f.spaces_before_ext == 3);
}

TEST_CASE("the attachment list loads and rejects bad entries") {
  auto types = AttachmentTypes::load(DataSource(SCAMCHECK_DATA_DIR));
  REQUIRE_MESSAGE(types.ok(), types.status().to_string());
  CHECK(types->dangerous.count("exe") == 1);
  CHECK(types->macro.count("xlsm") == 1);
  CHECK(types->archive.count("zip") == 1);
  CHECK(types->decoy.count("pdf") == 1);
  CHECK(types->zipbased.count("docx") == 1);

  // Every problem of an operator's list is reported, with the file name.
  namespace fs = std::filesystem;
  fs::path dir =
      fs::temp_directory_path() / ("scamcheck_attachments_" + std::to_string(::getpid()));
  fs::create_directories(dir / "lists");
  {
    std::ofstream out(dir / "lists" / "attachment_types.txt");
    out << "exe dangerous\nzip archive\npdf decoy\ninvoice lure\n"
           "bat\ncom dangerous bogus\nex.e dangerous\nscr 7 dangerous\n";
  }
  auto bad = AttachmentTypes::load(DataSource(dir.string()));
  fs::remove_all(dir);
  REQUIRE_FALSE(bad.ok());
  const std::string& message = bad.status().message();
  CHECK(message.find("attachment_types.txt") != std::string::npos);
  CHECK(message.find("\"bat\" has no tag") != std::string::npos);
  CHECK(message.find("unknown tag \"bogus\"") != std::string::npos);
  CHECK(message.find("bad extension \"ex.e\"") != std::string::npos);
  CHECK(message.find("bad strength \"7\"") != std::string::npos);
  CHECK_FALSE(AttachmentChecker::load(DataSource("/nonexistent/scamcheck")).ok());
}
