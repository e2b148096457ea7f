// Collection artifacts must not decide a verdict: replacing every recipient
// address of a mail (To, Cc, Delivered-To, X-Original-To, Envelope-To) by
// user@example.org wherever it occurs in the message, and the address of
// the mbox "From " envelope line there, must leave every verdict as it was,
// with the model and with the rules alone.
// (An address that is also the From header's is the sender's: it stays.) Checked over the
// e-mail fixtures of tests/fixtures/email (but those written to show a
// mail within the recipient's own organisation, kWithinOrganisation) and
// every e-mail record of
// ../shared/corpus/*/dev.jsonl (that part reported skipped when the corpus
// is absent).

#include <doctest/doctest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../support/skip.h"
#include "span_check.h"

namespace {

using scamcheck::testing::Record;

constexpr std::string_view kMask = "user@example.org";

// Fixtures whose point is the recipient's organisation: a colleague's
// share on its own SharePoint is scored by the rules, a stranger's is not
// (MailSender::links_stay_home). Masking their recipient changes that.
const std::set<std::string> kWithinOrganisation = {"de_sharepoint_freigabe_kollege.eml",
                                                   "en_sharepoint_share_colleague.eml"};

bool address_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '%' ||
         c == '+' || c == '-';
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Every addr-spec written in `value`.
void addresses_in(std::string_view value, std::set<std::string>& out) {
  for (std::size_t at = value.find('@'); at != std::string_view::npos;
       at = value.find('@', at + 1)) {
    std::size_t b = at, e = at + 1;
    while (b > 0 && address_char(value[b - 1])) --b;
    while (e < value.size() && address_char(value[e])) ++e;
    while (e > at + 1 && value[e - 1] == '.') --e;
    if (b < at && e > at + 1) out.insert(lower(value.substr(b, e - b)));
  }
}

struct Addresses {
  std::set<std::string> recipients;  // lower case
  std::size_t envelope_end = 0;      // length of the mbox "From " line, 0 if none
};

// The recipient addresses of a raw message (not the sender's own), and its
// envelope line.
Addresses recipients(std::string_view raw) {
  static const std::set<std::string> kHeaders = {
      "to", "cc", "bcc", "delivered-to", "x-original-to", "envelope-to", "x-envelope-to"};
  Addresses out;
  std::set<std::string> senders;
  std::size_t pos = 0;
  std::string current;  // the header being read, with its folded lines
  auto flush = [&] {
    std::size_t colon = current.find(':');
    if (colon != std::string::npos) {
      std::string name = lower(current.substr(0, colon));
      while (!name.empty() && name.back() == ' ') name.pop_back();
      std::string_view value = std::string_view(current).substr(colon);
      if (kHeaders.count(name) > 0) addresses_in(value, out.recipients);
      if (name == "from") addresses_in(value, senders);
    }
    current.clear();
  };
  if (raw.rfind("From ", 0) == 0) {
    out.envelope_end = std::min(raw.size(), raw.find('\n'));
    pos = out.envelope_end + 1;
  }
  while (pos < raw.size()) {
    std::size_t eol = raw.find('\n', pos);
    if (eol == std::string_view::npos) eol = raw.size();
    std::string_view line = raw.substr(pos, eol - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos = eol + 1;
    if (line.empty()) break;  // end of the header block
    if (line.front() == ' ' || line.front() == '\t') {
      current.append(line);
    } else {
      flush();
      current.assign(line);
    }
  }
  flush();
  for (const std::string& s : senders) out.recipients.erase(s);
  return out;
}

// `raw` with every occurrence (any case) of `address` in [from, to) replaced by kMask.
std::string replace_all(const std::string& raw, const std::string& address, std::size_t from,
                        std::size_t to) {
  const std::string low = lower(raw);
  std::string out(raw, 0, from);
  for (std::size_t hit = low.find(address, from); hit != std::string::npos && hit < to;
       hit = low.find(address, hit + address.size())) {
    if (hit + address.size() > to) break;
    out.append(raw, from, hit - from);
    out.append(kMask);
    from = hit + address.size();
  }
  out.append(raw, from, std::string::npos);
  return out;
}

// `raw` with its recipients masked everywhere and the envelope line's address in that line.
std::string mask(std::string raw, const Addresses& a) {
  if (a.envelope_end > 0) {
    std::set<std::string> envelope;
    addresses_in(std::string_view(raw).substr(0, a.envelope_end), envelope);
    for (const std::string& e : envelope) raw = replace_all(raw, e, 0, raw.find('\n'));
  }
  for (const std::string& r : a.recipients) raw = replace_all(raw, r, 0, raw.size());
  return raw;
}

// Verdicts of `records` before and after masking, with the model and with
// the rules alone; returns the ids that changed (" (rules only)" appended
// when only the rules' verdict did).
std::vector<std::string> changed_verdicts(const std::vector<Record>& records) {
  std::vector<Record> masked = records;
  for (Record& r : masked) r.text = mask(r.text, recipients(r.text));
  std::vector<std::string> changed;
  for (bool use_model : {true, false}) {
    const auto before = scamcheck::testing::analyze_all(records, use_model);
    const auto after = scamcheck::testing::analyze_all(masked, use_model);
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (before[i].ok != after[i].ok || before[i].verdict != after[i].verdict) {
        changed.push_back(records[i].id + (use_model ? "" : " (rules only)"));
      }
    }
  }
  return changed;
}

TEST_CASE("the masking finds recipients and only them") {
  const std::string raw =
      "From jose@monkey.org Mon Jan  1 00:00:00 2020\n"
      "From: Shop <news@shop.example>\n"
      "To: Jose <JOSE@monkey.org>,\n"
      "  other@example.net\n"
      "Delivered-To: phishing@pot\n"
      "Subject: hello phishing@pot\n"
      "\n"
      "Dear jose@monkey.org, To: not-a-header@example.com\n";
  const std::string self =
      "From a@spam.example Mon Jan  1 00:00:00 2002\nFrom: a@spam.example\nTo: "
      "a@spam.example\n\nhi\n";
  CHECK(recipients(self).recipients.empty());
  CHECK(mask(self, recipients(self)).find("From: a@spam.example") != std::string::npos);
  CHECK(mask(self, recipients(self)).rfind("From user@example.org Mon", 0) == 0);
  const Addresses found = recipients(raw);
  CHECK(found.recipients ==
        std::set<std::string>{"jose@monkey.org", "other@example.net", "phishing@pot"});
  CHECK(found.envelope_end == raw.find('\n'));
  const std::string masked = mask(raw, found);
  CHECK(masked.find("monkey.org") == std::string::npos);
  CHECK(masked.find("phishing@pot") == std::string::npos);
  CHECK(masked.find("news@shop.example") != std::string::npos);
  CHECK(masked.find("not-a-header@example.com") != std::string::npos);
}

TEST_CASE("fixture mails: verdicts do not depend on recipient addresses") {
  std::vector<Record> records;
  for (const char* dir : {"legit", "scam"}) {
    for (const auto& entry : std::filesystem::directory_iterator(
             std::filesystem::path(SCAMCHECK_FIXTURES_DIR) / "email" / dir)) {
      if (entry.path().extension() != ".eml") continue;
      if (kWithinOrganisation.count(entry.path().filename().string()) != 0) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream bytes;
      bytes << in.rdbuf();
      records.push_back({entry.path().filename().string(), "ham", "email", bytes.str()});
    }
  }
  REQUIRE(records.size() >= 40);
  const auto changed = changed_verdicts(records);
  for (const auto& id : changed) INFO(id);
  CHECK(changed.empty());
}

TEST_CASE("dev corpora: verdicts do not depend on recipient addresses") {
  const char* env = std::getenv("SCAMCHECK_CORPUS_DIR");
  const std::string dir = env != nullptr && *env != '\0' ? env : SCAMCHECK_CORPUS_DIR;
  if (!std::filesystem::is_directory(dir)) {
    scamcheck::testing::skip_case("corpus not found: " + dir);
    return;
  }
  std::size_t emails = 0;
  for (const auto& path : scamcheck::testing::jsonl_files(dir, "dev.jsonl")) {
    std::vector<Record> records;
    for (Record& r : scamcheck::testing::load_jsonl(path.string())) {
      if (r.kind == "email") records.push_back(std::move(r));
    }
    if (records.empty()) continue;
    emails += records.size();
    const auto changed = changed_verdicts(records);
    std::cout << path.parent_path().filename().string() << ": " << records.size()
              << " mails, verdict changed for " << changed.size() << "\n";
    for (std::size_t i = 0; i < changed.size() && i < 10; ++i) {
      std::cout << "  changed: " << changed[i] << "\n";
    }
    CHECK_MESSAGE(changed.empty(), path.string());
  }
  CHECK(emails > 0);
}

}  // namespace
