#include "email/reply_elsewhere.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "email/header_parse.h"
#include "email/relayed_mail.h"
#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

// Bytes before an address, on its line, where the request to write to it
// stands.
constexpr std::size_t kCueBytes = 48;
// "Label: value" lines from which a text is a form's or an account's
// notification rather than a letter.
constexpr std::size_t kMaxLabelLines = 3;
// Bytes before the colon of such a label.
constexpr std::size_t kMaxLabelBytes = 30;

// Words (runs of two or more letters; any non-ASCII byte counts as a letter)
// in `text`, counted up to `limit` + 1.
std::size_t words_in(std::string_view text, std::size_t limit) {
  std::size_t words = 0, run = 0;
  for (std::size_t i = 0; i <= text.size() && words <= limit; ++i) {
    const unsigned char c = i < text.size() ? static_cast<unsigned char>(text[i]) : ' ';
    if (is_alpha(static_cast<char>(c)) || c >= 0x80) {
      ++run;
    } else {
      if (run >= 2) ++words;
      run = 0;
    }
  }
  return words;
}

// Lines of `text` shaped "Label: value" (a short label of letters, blanks
// and hyphens, something after the colon), counted up to kMaxLabelLines.
std::size_t label_lines(std::string_view text) {
  std::size_t lines = 0, pos = 0;
  while (pos < text.size() && lines < kMaxLabelLines) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    std::size_t p = 0;
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
    const std::size_t colon = line.find(':', p);
    if (colon == std::string_view::npos || colon == p || colon - p > kMaxLabelBytes) continue;
    const std::string_view label = line.substr(p, colon - p);
    const bool word = std::all_of(label.begin(), label.end(), [](char c) {
      return is_alpha(c) || c == ' ' || c == '-' || static_cast<unsigned char>(c) >= 0x80;
    });
    std::string_view rest = line.substr(colon + 1);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t' || rest.front() == '\r')) {
      rest.remove_prefix(1);
    }
    if (word && !rest.empty()) ++lines;
  }
  return lines;
}

// Whether the text before an address on its line (`before`, lower case)
// asks the reader to write to it.
bool asks_to_write(std::string_view before) {
  static constexpr std::array<std::string_view, 6> kNotAsked = {"your", "you at", "sent to",
                                                                "ihre", "deine",  "gesendet an"};
  for (std::string_view w : kNotAsked) {
    if (before.find(w) != std::string_view::npos) return false;
  }
  static constexpr std::array<std::string_view, 14> kAsked = {
      "write",   "reply", "respond", "contact", "reach",   "email me", "e-mail me",
      "mail me", "send",  "schreib", "antwort", "kontakt", "melde",    "mail to"};
  for (std::string_view w : kAsked) {
    if (before.find(w) != std::string_view::npos) return true;
  }
  // A label: "Email:", "E-Mail-Adresse:", "mail :".
  std::string_view t = before;
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '<' ||
                        static_cast<unsigned char>(t.back()) == 0xA0 ||
                        static_cast<unsigned char>(t.back()) == 0xC2)) {
    t.remove_suffix(1);
  }
  if (t.empty() || t.back() != ':') return false;
  const std::size_t line_start = t.size() > kMaxLabelBytes ? t.size() - kMaxLabelBytes : 0;
  return t.substr(line_start).find("mail") != std::string_view::npos;
}

// The addresses replies to the mail go to: From, Sender and Reply-To, lower case.
std::vector<std::string> own_addresses(const ParsedEmail& email) {
  std::vector<std::string> own;
  for (std::string_view name : {"From", "Sender", "Reply-To"}) {
    for (const EmailHeader* h : email.find(name)) {
      for (const Mailbox& m : parse_mailbox_list(h->value)) {
        if (!m.address.empty()) own.push_back(lower_ascii(m.address.of(h->value)));
      }
    }
  }
  return own;
}

// A finding on [start, end) of what a part shows, its span in the part's
// source (an HTML part's text maps back through `visible`).
std::optional<Finding> finding_in(const EmailPart& part, const VisibleText* visible,
                                  std::size_t start, std::size_t end) {
  if (visible != nullptr) {
    const auto source = visible->source_span(start, end);
    if (!source || source->second > part.text.size()) return std::nullopt;
    std::tie(start, end) = *source;
  }
  return Finding::at("reply_to_mismatch", start, end, part.location);
}

// The first address in `text` that the mail asks the reader to write to and
// that is not the sender's, as a finding.
std::optional<Finding> address_asked_for(std::string_view text, const EmailPart& part,
                                         const VisibleText* visible,
                                         const std::vector<std::string>& own,
                                         const HeaderChecker& headers) {
  for (const NameAddress& a : addresses_in(text, Span{0, text.size()})) {
    const std::string address = lower_ascii(a.address.of(text));
    if (std::find(own.begin(), own.end(), address) != own.end()) continue;
    if (!headers.freemail_mailbox(lower_ascii(a.domain.of(text)))) continue;
    std::size_t line = text.rfind('\n', a.address.start == 0 ? 0 : a.address.start - 1);
    line = line == std::string_view::npos || a.address.start == 0 ? 0 : line + 1;
    const std::size_t from =
        std::max(line, a.address.start > kCueBytes ? a.address.start - kCueBytes : std::size_t{0});
    if (!asks_to_write(lower_ascii(text.substr(from, a.address.start - from)))) continue;
    return finding_in(part, visible, a.address.start, a.address.end);
  }
  return std::nullopt;
}

}  // namespace

void check_reply_elsewhere(const ParsedEmail& email, bool answers, const HeaderChecker& headers,
                           Findings& findings) {
  if (answers) return;
  for (std::string_view list : {"List-Id", "List-Post", "List-Unsubscribe", "Mailing-List"}) {
    if (!email.find(list).empty()) return;
  }
  const std::vector<std::string> own = own_addresses(email);
  for (const EmailPart& part : email.parts) {
    if (part.depth != 0) continue;
    const VisibleText* visible = nullptr;
    std::string_view text;
    if (part.type == EmailPart::Type::kText) {
      text = part.text;
    } else if (part.type == EmailPart::Type::kHtml && part.visible) {
      visible = part.visible.get();
      text = visible->text;
    } else {
      continue;
    }
    // The check is for short letters: the word count, which stops past the
    // limit, goes first so that a long text is not scanned line by line.
    if (words_in(text, kReplyElsewhereMaxWords) > kReplyElsewhereMaxWords ||
        label_lines(text) >= kMaxLabelLines || find_forwarded(text).found) {
      continue;
    }
    if (std::optional<Finding> f = address_asked_for(text, part, visible, own, headers)) {
      findings.push_back(std::move(*f));
      return;
    }
  }
}

}  // namespace scamcheck::internal
