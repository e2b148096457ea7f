// E-mail features: a few sender-side headers, the sender against its links
// and its reply address, and every readable part (as prose and links).
// Recipient headers are never read, nor the recipients' addresses anywhere.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "email/email_checks.h"
#include "email/recipients.h"
#include "model/features.h"
#include "model/features_core.h"

namespace scamcheck::internal::model {
namespace {

// Links of one HTML part read for link features at most.
constexpr std::size_t kMaxHtmlLinks = 30;

// The value of a sender-side header feature: they describe the software
// and the era of a mail as much as its intent, so they count for less.
constexpr float kHeaderValue = 0.3f;

// Which of a few telling headers the sender's software wrote, and the first
// word of some (the mailer, the body's structure, bulk or list precedence).
// Recipient headers and the relays' Received lines are never read.
void add_headers(const ParsedEmail& email, FeatureSet& out) {
  // Headers whose presence means something in any era: replies, mailing
  // lists, bulk mail, the sender's software. (Others, e.g. the trace
  // headers a mailbox or relay adds, describe how a corpus was collected.)
  constexpr std::string_view kNamed[] = {"in-reply-to",
                                         "references",
                                         "list-id",
                                         "list-unsubscribe",
                                         "list-post",
                                         "list-help",
                                         "list-archive",
                                         "precedence",
                                         "sender",
                                         "errors-to",
                                         "reply-to",
                                         "x-priority",
                                         "x-msmail-priority",
                                         "x-mailer",
                                         "user-agent",
                                         "organization",
                                         "mailing-list",
                                         "x-mailing-list",
                                         "x-beenthere",
                                         "x-mailman-version",
                                         "importance",
                                         "thread-index",
                                         "auto-submitted",
                                         "feedback-id",
                                         "list-unsubscribe-post"};
  constexpr std::string_view kValued[] = {"X-Mailer",   "User-Agent", "Content-Type",
                                          "Precedence", "X-Priority", "Content-Transfer-Encoding"};
  for (const EmailHeader& h : email.headers) {
    if (h.occurrence > 1 || is_recipient_header(h.name) || equals_ci(h.name, "Received") ||
        equals_ci(h.name, "X-Received")) {
      continue;
    }
    std::string name = h.name;
    for (char& c : name) c = ascii_lower(c);
    if (std::find(std::begin(kNamed), std::end(kNamed), name) != std::end(kNamed)) {
      out.hits.push_back(
          Hit{hash_of(kHeaderNameNs, name, false), kHeaderValue, Group::kOther, -1, 0, 0});
    }
    for (std::string_view v : kValued) {
      if (!equals_ci(v, h.name)) continue;
      std::size_t a = 0;
      while (a < h.value.size() && is_space(h.value[a])) ++a;
      std::size_t b = a;
      while (b < h.value.size() && !is_space(h.value[b]) && h.value[b] != ';' &&
             h.value[b] != '(' && h.value[b] != '/' && b - a < 24) {
        ++b;
      }
      if (v == "Content-Type" && b < h.value.size() && h.value[b] == '/') {
        ++b;
        while (b < h.value.size() && !is_space(h.value[b]) && h.value[b] != ';') ++b;
      }
      std::string value = name + "=" + h.value.substr(a, b - a);
      for (char& c : value) c = ascii_lower(c);
      out.hits.push_back(
          Hit{hash_of(kHeaderValueNs, value), kHeaderValue, Group::kOther, -1, 0, 0});
    }
  }
}

// The domain of the first address in a header value ("Bank <a@b.example>"
// -> "b.example"), lower case; empty if none.
std::string address_domain(std::string_view value) {
  const std::size_t at = value.rfind('@');
  if (at == std::string_view::npos) return {};
  std::size_t e = at + 1;
  while (e < value.size() && is_host_byte(value[e])) ++e;
  std::string d(value.substr(at + 1, e - at - 1));
  while (!d.empty() && d.back() == '.') d.pop_back();
  for (char& c : d) c = ascii_lower(c);
  return d;
}

// Whether the mail claims to come from an address it was delivered to.
bool sent_to_itself(std::string_view from, const std::vector<std::string>& recipients) {
  std::vector<std::string> sender;
  addresses_in(from, sender);
  return !sender.empty() &&
         std::find(recipients.begin(), recipients.end(), sender.back()) != recipients.end();
}

// `text` with every recipient address in it (any case) blanked out with as
// many spaces, so that spans keep their places: the body of a mail often
// repeats the address it was sent to ("sent to jane@...", "?email=jane@..."),
// and which address that is says nothing about the mail. Null when the text
// holds none (the common case: no copy).
std::optional<std::string> blank_recipients(std::string_view text,
                                            const std::vector<std::string>& recipients) {
  std::optional<std::string> out;
  for (const std::string& r : recipients) {
    const std::string_view current = out ? std::string_view(*out) : text;
    for (std::size_t at = current.find('@'); at != std::string_view::npos;
         at = current.find('@', at + 1)) {
      const std::size_t local = r.find('@');
      if (at < local || current.size() - (at - local) < r.size()) continue;
      const std::size_t begin = at - local;
      if (!equals_ci(current.substr(begin, r.size()), r)) continue;
      if (!out) out.emplace(text);
      std::fill_n(out->begin() + static_cast<std::ptrdiff_t>(begin), r.size(), ' ');
    }
  }
  return out;
}

// Who the sender says it is: digits in the mailbox name, and whether the
// display name shares a word with the address ("Jane Roe <jane.roe@...>")
// or not ("Your Bank <x7731@...>").
// (Not whether it is a free mail service: in the corpora's era that was
// mostly spam, today it is how most people write.)
template <typename Emit>
void add_sender(const ParsedEmail& email, const std::string& sender, const Emit& emit) {
  auto from = email.find("From");
  if (from.empty() || sender.empty()) {
    emit("from=none");
    return;
  }
  const std::string_view value = from.front()->value;
  const std::size_t at = value.rfind('@');
  std::size_t local_start = at;
  while (local_start > 0 && !is_space(value[local_start - 1]) && value[local_start - 1] != '<' &&
         value[local_start - 1] != '"' && value[local_start - 1] != ':') {
    --local_start;
  }
  const std::string_view local = value.substr(local_start, at - local_start);
  const std::size_t digits = std::count_if(local.begin(), local.end(), is_digit);
  emit(digits == 0 ? "fromdigits=0" : digits <= 2 ? "fromdigits=1" : "fromdigits=3");
  // Words of the display name (before the address) against the address.
  std::string_view name = value.substr(0, std::min(local_start, value.size()));
  std::string address(
      value.substr(local_start, std::min(value.size(), at + 1 + sender.size()) - local_start));
  for (char& c : address) c = ascii_lower(c);
  bool any_word = false;
  bool shared = false;
  for (std::size_t i = 0; i < name.size();) {
    while (i < name.size() && !is_alpha(name[i])) ++i;
    std::size_t j = i;
    while (j < name.size() && is_alpha(name[j])) ++j;
    if (j - i >= 3) {
      any_word = true;
      std::string w(name.substr(i, j - i));
      for (char& c : w) c = ascii_lower(c);
      if (address.find(w) != std::string::npos) shared = true;
    }
    i = j;
  }
  emit(!any_word ? "fromname=none" : shared ? "fromname=shared" : "fromname=other");
}

// How the links of a mail relate to its sender: how many there are, whether
// they lead to the sender's own domain, to how many others, and whether
// replies go to another domain than the sender's.
void add_mail_structure(const ParsedEmail& email, const std::vector<std::string>& recipients,
                        const std::vector<std::string>& domains, FeatureSet& out) {
  auto emit = [&](std::string_view what) {
    out.hits.push_back(Hit{hash_of(kMailNs, what, false), 1.0f, Group::kOther, -1, 0, 0});
  };
  std::string sender;
  bool to_itself = false;
  if (auto from = email.find("From"); !from.empty()) {
    // A sender forged as the recipient says nothing about who sent it, and
    // its address is the recipient's: none of the sender's features then.
    to_itself = sent_to_itself(from.front()->value, recipients);
    if (!to_itself) sender = address_domain(from.front()->value);
  }
  const std::string_view sender_rd = registrable_of(sender);
  std::vector<std::string_view> distinct;
  std::size_t own = 0;
  for (const std::string& d : domains) {
    const std::string_view rd = d;
    if (!sender_rd.empty() && rd == sender_rd) ++own;
    if (std::find(distinct.begin(), distinct.end(), rd) == distinct.end()) distinct.push_back(rd);
  }
  const std::size_t n = domains.size();
  emit(n == 0   ? "links=0"
       : n == 1 ? "links=1"
       : n <= 3 ? "links=2"
       : n <= 9 ? "links=4"
                : "links=10");
  const std::size_t foreign = distinct.size() - (own > 0 ? 1 : 0);
  if (n > 0) {
    emit(sender_rd.empty() ? "sender=unknown"
         : own == n        ? "sender=all"
         : own > 0         ? "sender=some"
                           : "sender=none");
    emit(foreign == 0   ? "foreign=0"
         : foreign == 1 ? "foreign=1"
         : foreign == 2 ? "foreign=2"
         : foreign <= 5 ? "foreign=3"
                        : "foreign=6");
  }
  if (to_itself) {
    emit("from=recipient");
    return;
  }
  add_sender(email, sender, emit);
  // A reply address the mail was delivered to (a mailing list that takes
  // the replies) is the recipient's, not the sender's: it says nothing.
  if (auto reply = email.find("Reply-To");
      !reply.empty() && !sender_rd.empty() && !sent_to_itself(reply.front()->value, recipients)) {
    const std::string r = address_domain(reply.front()->value);
    if (!r.empty()) emit(registrable_of(r) == sender_rd ? "replyto=same" : "replyto=other");
  }
}

// Every feature of a mail but how its links relate to its sender. Prose
// and links are read without the recipients' addresses (blank_recipients).
void add_email_parts(const ParsedEmail& email, const HtmlChecker& html,
                     const std::vector<std::string>& recipients, FeatureSet& out) {
  // `normalized`: the detector's normalization of `text`, if it kept one
  // (add_prose uses it only for the very text it reads).
  auto prose = [&](std::string_view text, std::int32_t field, SpanMap map = {},
                   const NormalizedText* normalized = nullptr) {
    const std::optional<std::string> blanked = blank_recipients(text, recipients);
    add_prose(blanked ? std::string_view(*blanked) : text, field, out, map,
              blanked ? nullptr : normalized);
  };
  add_headers(email, out);
  for (const EmailHeader* subject : email.find("Subject")) {
    prose(subject->value, out.add_location(subject->location()));
  }
  if (auto from = email.find("From"); !from.empty()) {
    prose(from.front()->value, out.add_location(from.front()->location()));
  }
  for (const EmailPart& part : email.parts) {
    if (part.type == EmailPart::Type::kText) {
      prose(part.text, out.add_location(part.location), {}, part.normalized.get());
    } else if (part.type == EmailPart::Type::kHtml) {
      // What the detector's HTML check found the part to show, else parsed here.
      std::shared_ptr<const VisibleText> shown = part.visible;
      if (!shown) {
        auto parsed = std::make_shared<VisibleText>();
        Findings ignored;
        html.check(part.text, part.location, ignored, *parsed);
        shown = std::move(parsed);
      }
      const VisibleText& visible = *shown;
      const std::int32_t field = out.add_location(part.location);
      if (!visible.text.empty()) {
        // The detector's normalization only if it is of this very text.
        prose(visible.text, field, SpanMap{visible.source_start.data(), visible.source_end.data()},
              part.visible == shown ? part.normalized.get() : nullptr);
      }
      std::size_t links = 0;
      for (const VisibleText::Link& l : visible.links) {
        if (++links > kMaxHtmlLinks) break;
        if (l.href_end <= l.href_start || l.href.empty()) continue;
        // The decoded href need not match the source byte for byte.
        const std::optional<std::string> blanked = blank_recipients(l.href, recipients);
        const NormalizedText norm(blanked ? std::string_view(*blanked) : l.href);
        add_link(norm.text(), 0, norm.text().size(), field,
                 Spans::whole(static_cast<std::uint32_t>(l.href_start),
                              static_cast<std::uint32_t>(l.href_end)),
                 out);
      }
    }
  }
}

}  // namespace

void add_email(const ParsedEmail& email, const HtmlChecker& html, FeatureSet& out) {
  std::vector<std::string> domains;
  out.link_domains = &domains;
  out.mail_words = true;
  const std::vector<std::string> recipients = recipient_addresses(email);
  add_email_parts(email, html, recipients, out);
  out.mail_words = false;
  out.link_domains = nullptr;
  add_mail_structure(email, recipients, domains, out);
}

}  // namespace scamcheck::internal::model
