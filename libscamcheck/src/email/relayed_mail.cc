#include "email/relayed_mail.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <tuple>

#include "email/email_checks.h"
#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

// Words a mail may show besides its links and still be "only a link".
constexpr std::size_t kLinkOnlyMaxWords = 25;
// Bytes before the colon of a "Label: value" line.
constexpr std::size_t kMaxLabelBytes = 40;

// What a part shows a reader, with the map back to its source for HTML.
struct Shown {
  std::string_view text;
  const EmailPart* part = nullptr;
  const VisibleText* visible = nullptr;  // null for a text/plain part
};

enum class Field { kNone, kName, kContact, kMessage, kMeta };

// The fields of a web form's notification, by the labels forms give them
// (lower case; en, de, fr, es, it, nl, pt, pl, tr, ja). kMeta: what the
// form software adds about the submission (the page, the visitor's site).
Field field_of(std::string_view label) {
  static constexpr std::array<std::string_view, 26> kName = {
      "name",     "your name", "first name", "last name",   "full name", "vorname",  "nachname",
      "ihr name", "nom",       "prénom",     "nom complet", "nombre",    "apellido", "nome",
      "cognome",  "naam",      "voornaam",   "achternaam",  "imię",      "nazwisko", "ad",
      "soyad",    "ad soyad",  "お名前",     "名前",        "氏名"};
  static constexpr std::array<std::string_view, 23> kContact = {
      "email",          "e-mail",   "your email", "email address", "e-mail address",
      "your e-mail",    "phone",    "telephone",  "phone number",  "telefon",
      "e-mail-adresse", "courriel", "téléphone",  "correo",        "correo electrónico",
      "teléfono",       "telefone", "telefono",   "telefoon",      "e-posta",
      "メールアドレス", "電話番号", "mail"};
  static constexpr std::array<std::string_view, 30> kMessage = {
      "message",       "your message",   "message body",       "body",
      "comment",       "comments",       "comment or message", "inquiry",
      "enquiry",       "your enquiry",   "your inquiry",       "question",
      "nachricht",     "ihre nachricht", "mitteilung",         "anfrage",
      "votre message", "mensaje",        "comentario",         "messaggio",
      "commento",      "bericht",        "opmerking",          "mensagem",
      "wiadomość",     "mesaj",          "お問い合わせ内容",   "ご用件",
      "本文",          "details"};
  static constexpr std::array<std::string_view, 16> kMeta = {
      "page url",   "url",       "website",    "web site", "site",   "homepage",
      "webseite",   "page",      "referrer",   "referer",  "source", "form",
      "user agent", "remote ip", "powered by", "sent from"};
  auto in = [&](const auto& list) {
    return std::find(list.begin(), list.end(), label) != list.end();
  };
  if (in(kName)) return Field::kName;
  if (in(kContact)) return Field::kContact;
  if (in(kMessage)) return Field::kMessage;
  if (in(kMeta)) return Field::kMeta;
  return Field::kNone;
}

// `text` with ASCII letters in lower case, in a buffer of this thread's
// reused from call to call (valid until the next call).
const std::string& lowered(std::string_view text) {
  thread_local std::string buffer;
  buffer.assign(text);
  for (char& c : buffer) c = ascii_lower(c);
  return buffer;
}

// Whether a text holds one of a few needles (ASCII in lower case, other
// bytes as they are, each at least two bytes) in any ASCII case: a look at
// each byte, no copy. Most lines of a mail hold none of the words a check
// looks for, and this tells so before the check lower-cases the line and
// searches it for each phrase. Built once per set of needles: the scan of
// a line is then all the work.
class AnyOfCi {
 public:
  AnyOfCi(std::initializer_list<std::string_view> needles) {
    for (std::string_view n : needles) {
      const char c = n[0];
      const auto bit = static_cast<std::uint8_t>(1U << count_);
      starts_[static_cast<unsigned char>(c)] |= bit;
      starts_[static_cast<unsigned char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c)] |= bit;
      needles_[count_++] = n;
    }
  }

  bool in(std::string_view text) const {
    // The last byte cannot start a needle of two bytes or more.
    for (std::size_t i = 0; i + 1 < text.size(); ++i) {
      const unsigned bits = starts_[static_cast<unsigned char>(text[i])];
      if (bits == 0) continue;
      const char second = ascii_lower(text[i + 1]);
      for (unsigned k = 0; k < count_; ++k) {
        if ((bits >> k & 1U) != 0 && second == needles_[k][1] &&
            starts_with_ci(text.substr(i), needles_[k])) {
          return true;
        }
      }
    }
    return false;
  }

 private:
  std::array<std::uint8_t, 256> starts_{};  // bit k: needle k starts with this byte
  std::array<std::string_view, 8> needles_{};
  unsigned count_ = 0;
};

// Words by which a form's notification says what it is.
bool names_a_form(std::string_view text) {
  // Each phrase below holds one of these.
  static const AnyOfCi kWords{"form", "submi", "modulo", "お問い合わせ"};
  if (!kWords.in(text)) return false;
  static constexpr std::array<std::string_view, 17> kPhrases = {
      "contact form",           "form submission",       "new submission",
      "submitted the form",     "submitted a form",      "form on",
      "kontaktformular",        "formulaire de contact", "formulario de contacto",
      "modulo di contatto",     "contactformulier",      "formulário de contato",
      "formulário de contacto", "formularz kontaktowy",  "iletişim formu",
      "お問い合わせ",           "contact us form"};
  const std::string& lower = lowered(text);
  return std::any_of(kPhrases.begin(), kPhrases.end(),
                     [&](std::string_view p) { return lower.find(p) != std::string::npos; });
}

// Labels of a forwarded message's header block (lower case).
bool is_forward_header_label(std::string_view label) {
  static constexpr std::array<std::string_view, 34> kLabels = {
      "from",    "sent",    "to",      "cc",     "subject",   "date",  "de",
      "enviado", "para",    "assunto", "asunto", "fecha",     "von",   "gesendet",
      "an",      "betreff", "datum",   "envoyé", "à",         "objet", "da",
      "inviato", "a",       "oggetto", "van",    "verzonden", "aan",   "onderwerp",
      "od",      "wysłano", "do",      "temat",  "kimden",    "konu"};
  return std::find(kLabels.begin(), kLabels.end(), label) != kLabels.end();
}

// Labels that name a forwarded message's sender.
bool is_from_label(std::string_view label) {
  static constexpr std::array<std::string_view, 8> kFrom = {"from", "de", "von",    "van",
                                                            "da",   "od", "kimden", "från"};
  return std::find(kFrom.begin(), kFrom.end(), label) != kFrom.end();
}

// Lines that open a forwarded or quoted original message.
bool is_forward_marker(std::string_view line) {
  static constexpr std::array<std::string_view, 12> kMarkers = {
      "forwarded message",         "original message",        "begin forwarded message",
      "weitergeleitete nachricht", "ursprüngliche nachricht", "message transféré",
      "message d'origine",         "mensaje reenviado",       "mensaje original",
      "messaggio inoltrato",       "doorgestuurd bericht",    "mensagem encaminhada"};
  // Each marker holds one of these, and none is shorter than 16 bytes.
  static const AnyOfCi kWords{"mess", "mensa", "nachricht", "bericht"};
  if (line.size() >= 16 && kWords.in(line)) {
    const std::string& lower = lowered(line);
    for (std::string_view m : kMarkers) {
      if (lower.find(m) != std::string::npos) return true;
    }
  }
  // An Outlook separator: a line of underscores.
  return line.size() >= 20 && line.find_first_not_of('_') == std::string_view::npos;
}

std::string_view trim_line(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '*' ||
                        s.front() == '-' || s.front() == '>')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// The label of a "Label: value" line (lower case, ASCII folded), and where
// its value starts in `line`. With `bare_allowed` (what an HTML part shows),
// a line that is a label alone counts too: a table cell, its value in the next.
struct Label {
  std::string name;
  std::size_t value = 0;
};

std::optional<Label> label_of(std::string_view line, bool bare_allowed) {
  const std::string_view t = trim_line(line);
  if (t.empty()) return std::nullopt;
  const std::size_t offset = static_cast<std::size_t>(t.data() - line.data());
  std::size_t colon = t.find(':');
  std::size_t colon_len = 1;
  const std::size_t wide = t.find("\xEF\xBC\x9A");  // U+FF1A FULLWIDTH COLON
  if (wide != std::string_view::npos && (colon == std::string_view::npos || wide < colon)) {
    colon = wide;
    colon_len = 3;
  }
  if (colon != std::string_view::npos && colon <= kMaxLabelBytes) {
    return Label{lower_ascii(trim_line(t.substr(0, colon))), offset + colon + colon_len};
  }
  if (bare_allowed && t.size() <= kMaxLabelBytes) return Label{lower_ascii(t), line.size()};
  return std::nullopt;
}

// Calls fn(line, offset) for each line of `text`.
template <typename Fn>
void for_each_line(std::string_view text, Fn&& fn) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    if (!fn(text.substr(pos, end - pos), pos)) return;
    pos = end + 1;
  }
}

// A web link written in a text: its span and its host (lower case).
struct TextLink {
  std::size_t start = 0, end = 0;
  std::string host;
};

// The web links ("http://", "https://", "www.") written in `text` from `from`.
std::vector<TextLink> text_links(std::string_view text, std::size_t from = 0) {
  std::vector<TextLink> links;
  const std::string lower = lower_ascii(text);
  static constexpr std::array<std::pair<std::string_view, std::size_t>, 3> kPrefixes = {
      {{"https://", 8}, {"http://", 7}, {"www.", 0}}};
  // Each prefix's next occurrence, searched again only once passed: one
  // scan of the text per prefix, however many links it holds.
  std::array<std::size_t, kPrefixes.size()> next{};
  for (std::size_t i = 0; i < kPrefixes.size(); ++i) next[i] = lower.find(kPrefixes[i].first, from);
  std::size_t pos = from;
  while (pos < lower.size()) {
    std::size_t best = std::string::npos, skip = 0;
    for (std::size_t i = 0; i < kPrefixes.size(); ++i) {
      if (next[i] < pos) next[i] = lower.find(kPrefixes[i].first, pos);
      if (next[i] < best) {
        best = next[i];
        skip = kPrefixes[i].second;
      }
    }
    if (best == std::string::npos) break;
    std::size_t end = best;
    while (end < text.size() && !is_space(text[end]) &&
           std::string_view("<>\"'()[]").find(text[end]) == std::string_view::npos) {
      ++end;
    }
    const std::size_t host_start = best + skip;
    std::size_t host_end = host_start;
    while (host_end < end &&
           std::string_view("/?#:").find(lower[host_end]) == std::string_view::npos) {
      ++host_end;
    }
    if (host_end > host_start) {
      links.push_back({best, end, lower.substr(host_start, host_end - host_start)});
    }
    pos = std::max(end, best + 1);
  }
  return links;
}

// Whether `host` is `site` or one of its subdomains.
bool host_in_site(std::string_view host, std::string_view site) {
  if (site.empty()) return false;
  if (host == site) return true;
  return host.size() > site.size() && host.substr(host.size() - site.size()) == site &&
         host[host.size() - site.size() - 1] == '.';
}

// Whether a link's host and a sender's domain are one site (either may be
// the other's subdomain: "shop.example" and "mail.shop.example").
bool same_site(std::string_view host, std::string_view sender) {
  return host_in_site(host, sender) ||
         (host.find('.') != std::string_view::npos && host_in_site(sender, host));
}

// A finding on [start, end) of a shown text, its span in the part's source.
std::optional<Finding> finding_on(const Shown& s, std::string key, std::size_t start,
                                  std::size_t end) {
  if (end <= start || end > s.text.size()) return std::nullopt;
  if (s.visible != nullptr) {
    const auto source = s.visible->source_span(start, end);
    if (!source) return std::nullopt;
    std::tie(start, end) = *source;
  }
  return Finding::at(std::move(key), start, end, s.part->location);
}

// Whether a line opens with a greeting ("Dear ...", "Hallo ..."): a site
// that greets a visitor by the name typed into its form.
bool is_greeting(std::string_view line) {
  static constexpr std::array<std::string_view, 24> kGreetings = {
      "dear ",  "hello ",  "hi ",          "hey ",        "welcome ", "hallo ",
      "liebe ", "lieber ", "sehr geehrte", "willkommen ", "bonjour ", "cher ",
      "chère ", "hola ",   "estimado ",    "estimada ",   "ciao ",    "gentile ",
      "beste ", "olá ",    "caro ",        "cara ",       "witaj ",   "merhaba "};
  const std::string lower = lower_ascii(line.substr(0, 16));
  return std::any_of(kGreetings.begin(), kGreetings.end(),
                     [&](std::string_view g) { return lower.rfind(g, 0) == 0; });
}

// A link in the name a visitor typed: on a "Name:" line or in the greeting
// that opens the site's reply. Nobody's name holds a link.
std::optional<Finding> link_as_name(const Shown& s, std::string_view sender_site) {
  constexpr std::size_t kMaxGreetingBytes = 300;
  constexpr std::size_t kGreetingLines = 3;  // a greeting opens the text
  std::optional<Finding> found;
  std::size_t lines = 0;
  for_each_line(s.text, [&](std::string_view line, std::size_t offset) {
    const std::string_view t = trim_line(line);
    if (!t.empty()) ++lines;
    const std::optional<Label> label = label_of(line, false);
    const bool name_line =
        label && label->value < line.size() && field_of(label->name) == Field::kName;
    const bool greeting =
        lines <= kGreetingLines && t.size() <= kMaxGreetingBytes && is_greeting(t);
    if (!name_line && !greeting) return true;
    const std::size_t from = name_line ? label->value : 0;
    for (const TextLink& link : text_links(line, from)) {
      if (same_site(link.host, sender_site)) continue;
      found = finding_on(s, "form_relay_link", offset + link.start, offset + link.end);
      return false;
    }
    return true;
  });
  return found;
}

// A web form's notification whose submitted text links to another site:
// the first such link. A notification shows itself by a name, a contact and
// a message field, or by naming a form (here or in `subject`) next to a
// message field. Links on the lines the form software writes (the page, the
// visitor's own site, "sent from a contact form on ...") do not count.
std::optional<Finding> form_relay_link(const Shown& s, std::string_view subject,
                                       std::string_view sender_site) {
  bool name = false, contact = false, message = false;
  std::optional<std::size_t> fields_start;
  std::size_t label_lines = 0;
  std::vector<std::pair<std::size_t, std::size_t>> software_lines;
  for_each_line(s.text, [&](std::string_view line, std::size_t offset) {
    const std::optional<Label> label = label_of(line, s.visible != nullptr);
    if (!label) return true;
    const Field field = field_of(label->name);
    if (field == Field::kNone) return true;
    if (field == Field::kMeta) {
      software_lines.emplace_back(offset, offset + line.size());
      return true;
    }
    ++label_lines;
    if (!fields_start) fields_start = offset;
    name = name || field == Field::kName;
    contact = contact || field == Field::kContact;
    message = message || field == Field::kMessage;
    return true;
  });
  // Either shape needs a message field and two field lines: only then are
  // the lines searched for a form's name.
  if (!fields_start || !message || label_lines < 2) return std::nullopt;
  bool form_named = names_a_form(subject);
  for_each_line(s.text, [&](std::string_view line, std::size_t offset) {
    if (names_a_form(line)) {
      form_named = true;
      software_lines.emplace_back(offset, offset + line.size());
    }
    return true;
  });
  const bool form = (label_lines >= 3 && name && contact && message) ||
                    (form_named && label_lines >= 2 && message);
  if (!fields_start || !form) return std::nullopt;
  for (const TextLink& link : text_links(s.text, *fields_start)) {
    if (same_site(link.host, sender_site)) continue;
    const bool by_software =
        std::any_of(software_lines.begin(), software_lines.end(),
                    [&](const auto& l) { return link.start >= l.first && link.start < l.second; });
    if (by_software) continue;
    return finding_on(s, "form_relay_link", link.start, link.end);
  }
  return std::nullopt;
}

// Words (runs of two or more letters) a text shows outside its links and
// outside the header block of a message it forwards, counted up to `limit`
// + 1.
std::size_t own_words(std::string_view text, std::size_t limit) {
  std::size_t words = 0;
  for_each_line(text, [&](std::string_view line, std::size_t) {
    if (is_forward_marker(trim_line(line))) return true;
    if (const std::optional<Label> label = label_of(line, false);
        label && label->value < line.size() && is_forward_header_label(label->name)) {
      return true;
    }
    // A link ends at white space: a line's links are those found in the
    // line alone, and only the lines read before the count stops are
    // searched for them.
    const std::vector<TextLink> links = text_links(line);  // in order, apart
    std::size_t next_link = 0;                             // the first not ended before here
    std::size_t run = 0;
    for (std::size_t i = 0; i <= line.size(); ++i) {
      const std::size_t at = i;
      while (next_link < links.size() && links[next_link].end <= at) ++next_link;
      const bool in_link = next_link < links.size() && at >= links[next_link].start;
      const unsigned char c = i < line.size() ? static_cast<unsigned char>(line[i]) : ' ';
      const bool letter = !in_link && (is_alpha(static_cast<char>(c)) || c >= 0x80);
      if (letter) {
        ++run;
      } else {
        if (run >= 2) ++words;
        run = 0;
      }
    }
    return words <= limit;
  });
  return words;
}

// Whether a registrable domain is Google's ("google.com", "google.co.uk").
bool is_google(std::string_view registrable) { return registrable.rfind("google.", 0) == 0; }

// The value of query parameter `name` in `url` ("" if none), undecoded.
std::string_view query_param(std::string_view url, std::string_view name) {
  const std::size_t q = url.find('?');
  if (q == std::string_view::npos) return {};
  std::size_t pos = q + 1;
  while (pos < url.size()) {
    std::size_t end = url.find('&', pos);
    if (end == std::string_view::npos) end = url.size();
    const std::string_view pair = url.substr(pos, end - pos);
    if (pair.size() > name.size() && pair.substr(0, name.size()) == name &&
        pair[name.size()] == '=') {
      return pair.substr(name.size() + 1);
    }
    pos = end + 1;
  }
  return {};
}

// Whether Google's servers sent the mail (its Message-ID or a DKIM
// signature of google.com), as they do for their services' notifications.
bool sent_through_google(const ParsedEmail& email) {
  for (const EmailHeader* h : email.find("Message-ID")) {
    if (lower_ascii(h->value).find("google.com>") != std::string::npos) return true;
  }
  for (const EmailHeader* h : email.find("DKIM-Signature")) {
    const std::string v = lower_ascii(h->value);
    if (v.find("d=google.com;") != std::string::npos) return true;
  }
  return false;
}

// The host a link through a Google redirect leads to, and whether the
// redirect is one that ordinary mail never uses (AMP pages, Translate's
// proxy) rather than the click wrapper of Google's own mails (/url?q=).
struct Redirect {
  std::string target;
  bool rare = false;
};

std::optional<Redirect> google_redirect(const UrlInfo& u) {
  const std::string lower = lower_ascii(u.url);
  const std::size_t scheme = lower.find("://");
  if (scheme == std::string::npos) return std::nullopt;
  const std::size_t path = lower.find('/', scheme + 3);
  if (path == std::string::npos) return std::nullopt;
  std::string_view rest = std::string_view(lower).substr(path);
  auto host_of = [](std::string_view s) {
    if (s.rfind("https://", 0) == 0) s.remove_prefix(8);
    if (s.rfind("http://", 0) == 0) s.remove_prefix(7);
    if (s.rfind("https%3a%2f%2f", 0) == 0) s.remove_prefix(14);
    if (s.rfind("http%3a%2f%2f", 0) == 0) s.remove_prefix(13);
    const std::size_t end = s.find_first_of("/?#&%:");
    return std::string(s.substr(0, end));
  };
  std::optional<Redirect> r;
  if (u.host.size() > 15 && u.host.substr(u.host.size() - 15) == ".translate.goog") {
    r = Redirect{u.host, true};
  } else if (!is_google(u.registrable_domain)) {
    return std::nullopt;
  } else if (rest.rfind("/amp/", 0) == 0) {
    rest.remove_prefix(5);
    if (rest.rfind("s/", 0) == 0) rest.remove_prefix(2);
    r = Redirect{host_of(rest), true};
  } else if (u.host.rfind("translate.", 0) == 0) {
    r = Redirect{host_of(query_param(rest, "u")), true};
  } else if (rest.rfind("/url?", 0) == 0) {
    std::string_view target = query_param(rest, "q");
    if (target.empty()) target = query_param(rest, "url");
    r = Redirect{host_of(target), false};
  }
  if (!r || r->target.find('.') == std::string::npos) return std::nullopt;
  // Google's own pages behind Google's wrapper are no disguise.
  const std::string& t = r->target;
  if (t.find("google.") != std::string::npos || t.find("youtube.com") != std::string::npos) {
    return std::nullopt;
  }
  return r;
}

}  // namespace

Forwarded find_forwarded(std::string_view text) {
  constexpr std::size_t kWindow = 4;  // non-empty lines from marker to From, From to the rest
  Forwarded out;
  std::optional<std::size_t> marker_line;
  std::optional<std::size_t> from_line;
  std::size_t from_header_lines = 0;
  std::string domain;
  std::size_t value_start = 0, value_end = 0;
  std::size_t n = 0;
  auto done = [&] {
    out.found = true;
    out.sender_domain = domain;
    out.from_start = value_start;
    out.from_end = value_end;
    return false;
  };
  for_each_line(text, [&](std::string_view line, std::size_t offset) {
    const std::string_view t = trim_line(line);
    if (t.empty()) return true;
    ++n;
    if (is_forward_marker(t)) {
      marker_line = n;
      return true;
    }
    const std::optional<Label> label = label_of(line, false);
    const bool header = label && is_forward_header_label(label->name);
    if (from_line && n - *from_line <= kWindow && header) {
      if (++from_header_lines >= 2) return done();
    }
    if (!label || !is_from_label(label->name)) return true;
    // A From line: its address's domain.
    std::string_view value = line.substr(std::min(label->value, line.size()));
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\r')) value.remove_suffix(1);
    value_start = offset + static_cast<std::size_t>(value.data() - line.data());
    value_end = value_start + value.size();
    domain.clear();
    if (const std::size_t at = value.rfind('@'); at != std::string_view::npos) {
      std::size_t end = at + 1;
      while (end < value.size() &&
             (is_alnum(value[end]) || value[end] == '.' || value[end] == '-')) {
        ++end;
      }
      domain = lower_ascii(value.substr(at + 1, end - at - 1));
      while (!domain.empty() && domain.back() == '.') domain.pop_back();
    }
    if (marker_line && n - *marker_line <= kWindow) return done();
    from_line = n;
    from_header_lines = 0;
    return true;
  });
  return out;
}

void check_relayed_mail(const ParsedEmail& email, std::string_view registrable_sender,
                        const std::vector<UrlInfo>& urls, Findings& findings) {
  // Whose site a link is not: the sender's registrable domain, else (a
  // freemail mailbox, a documentation domain) the From address's domain.
  std::string own(registrable_sender);
  if (own.empty()) {
    if (auto from = email.find("From"); !from.empty()) {
      const std::string_view v = from.front()->value;
      if (const std::size_t at = v.rfind('@'); at != std::string_view::npos) {
        std::size_t end = at + 1;
        while (end < v.size() && (is_alnum(v[end]) || v[end] == '.' || v[end] == '-')) ++end;
        own = lower_ascii(v.substr(at + 1, end - at - 1));
      }
    }
  }
  const std::string_view sender_site = own;
  std::vector<Shown> shown;
  for (const EmailPart& part : email.parts) {
    if (part.depth != 0) continue;
    if (part.type == EmailPart::Type::kText) {
      shown.push_back({part.text, &part, nullptr});
    } else if (part.type == EmailPart::Type::kHtml && part.visible) {
      shown.push_back({part.visible->text, &part, part.visible.get()});
    }
  }
  std::string_view subject;
  if (auto h = email.find("Subject"); !h.empty()) subject = h.front()->value;
  for (const Shown& s : shown) {
    std::optional<Finding> f = form_relay_link(s, subject, sender_site);
    if (!f) f = link_as_name(s, sender_site);
    if (f) {
      f->severity = Severity::kHigh;
      findings.push_back(std::move(*f));
      break;
    }
  }

  // A link through a Google redirect to another site: the reader sees a
  // name they trust; the link leads elsewhere. Google's own click wrapper
  // (/url?q=) is a strong sign only in mail that Google did not send: its
  // services (calendar invitations, document comments) wrap every link.
  const bool sent_by_google = is_google(sender_site) || sent_through_google(email);
  for (const UrlInfo& u : urls) {
    const std::optional<Redirect> r = google_redirect(u);
    if (!r || same_site(r->target, sender_site)) continue;
    bool found = false;
    for (const Shown& s : shown) {
      const std::size_t at = s.part->text.find(r->target);
      if (at == std::string::npos) continue;
      Finding f = Finding::at("redirect_link", at, at + r->target.size(), s.part->location);
      if (r->rare || !sent_by_google) f.severity = Severity::kHigh;
      findings.push_back(std::move(f));
      found = true;
      break;
    }
    if (found) break;
  }

  // Little more than a link to another site. The sender of a forwarded
  // message is its own From line.
  // Bulk mail that offers to unsubscribe is exempt: an image-only
  // newsletter is shaped the same.
  if (!email.find("List-Unsubscribe").empty()) return;
  // The word count, which stops past the limit, goes first: a mail with
  // more to say is not searched for a forwarded message's From line.
  for (const Shown& s : shown) {
    if (own_words(s.text, kLinkOnlyMaxWords) > kLinkOnlyMaxWords) return;
  }
  std::string site(sender_site);
  for (const Shown& s : shown) {
    if (Forwarded fwd = find_forwarded(s.text); fwd.found) site = fwd.sender_domain;
  }
  if (site.empty()) return;
  // The link hides behind a picture or a button: its host is not shown.
  for (const Shown& s : shown) {
    if (s.visible == nullptr) continue;
    const std::string shown_lower = lower_ascii(s.text);
    for (const VisibleText::Link& l : s.visible->links) {
      const std::vector<TextLink> href = text_links(l.href);
      if (href.empty() || href.front().start != 0) continue;
      const std::string& host = href.front().host;
      std::string_view domain = host;
      for (const UrlInfo& u : urls) {
        if (u.host == host && !u.registrable_domain.empty()) domain = u.registrable_domain;
      }
      if (host_in_site(site, domain) || host_in_site(host, site)) continue;
      if (shown_lower.find(host) != std::string::npos) continue;
      if (l.href_end <= l.href_start || l.href_end > s.part->text.size()) continue;
      Finding f = Finding::at("link_only_mail", l.href_start, l.href_end, s.part->location);
      f.severity = Severity::kHigh;
      findings.push_back(std::move(f));
      return;
    }
  }
}

}  // namespace scamcheck::internal
