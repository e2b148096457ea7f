// DisplayNameBrands and MailProviders (email/header_names.h).
#include "email/header_names.h"

#include <algorithm>
#include <array>

#include "url/url_lists.h"
#include "util/ascii.h"
#include "util/utf8.h"

namespace scamcheck::internal {
namespace {

// Words that accompany a brand in the display names of its real mail and
// of its imitations ("PayPal Service", "Sparkasse Kundenservice",
// "example.com IT Helpdesk"). With them an ambiguous short brand name ("O2",
// "Ledger") is taken as the brand.
// clang-format off
constexpr std::array<std::string_view, 70> kServiceWords = {
    "support", "service", "services", "team", "customer", "customers", "care", "account",
    "accounts", "security", "secure", "alert", "alerts", "notice", "notification",
    "notifications", "official", "info", "information", "help", "helpdesk", "center", "centre",
    "online", "billing", "payment", "payments", "noreply", "no", "reply", "update", "updates",
    "verification", "verify", "wallet", "mail", "kundenservice", "kundendienst", "sicherheit",
    "konto", "kunden", "mitteilung", "benachrichtigung", "hinweis", "de", "com", "net", "express",
    "paket", "delivery", "shipping", "the", "your", "ihr", "inc", "ltd", "gmbh", "ag", "admin",
    "administrator", "webmaster", "postmaster", "it", "mailbox", "email", "e", "system", "portal",
    "server", "desk"};
// clang-format on

// Letters and digits only, lower case: the form of the keys.
std::string compact(std::string_view s) {
  std::string out;
  for (char c : s) {
    c = ascii_lower(c);
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) out.push_back(c);
  }
  return out;
}

// The ASCII letter or digit a character stands for in a display name:
// accented Latin letters ("Crédit"), and the look-alikes and decorations
// that disguise brand names from filters: Cyrillic and Greek homoglyphs
// ("MеtаМаsk" with Cyrillic е, а, М), small capitals ("ᴘᴀʏᴘᴀʟ"),
// fullwidth forms and the mathematical alphanumerics ("𝗣𝗮𝘆𝗣𝗮𝗹"). 0 if
// none.
char fold_code_point(char32_t cp) {
  if (cp >= 0xC0 && cp <= 0xFF) {
    static constexpr char kLatin1[] =
        "AAAAAAACEEEEIIII"     // C0-CF
        "DNOOOOO\0OUUUUY\0s"   // D0-DF
        "aaaaaaaceeeeiiii"     // E0-EF
        "dnooooo\0ouuuuy\0y";  // F0-FF
    return kLatin1[cp - 0xC0];
  }
  if (cp >= 0xFF21 && cp <= 0xFF3A) return static_cast<char>('A' + (cp - 0xFF21));
  if (cp >= 0xFF41 && cp <= 0xFF5A) return static_cast<char>('a' + (cp - 0xFF41));
  if (cp >= 0xFF10 && cp <= 0xFF19) return static_cast<char>('0' + (cp - 0xFF10));
  if (cp >= 0x1D400 && cp <= 0x1D6A3) {
    unsigned k = (cp - 0x1D400) % 52;
    return static_cast<char>(k < 26 ? 'A' + k : 'a' + (k - 26));
  }
  if (cp >= 0x1D7CE && cp <= 0x1D7FF) return static_cast<char>('0' + (cp - 0x1D7CE) % 10);
  struct Pair {
    char32_t cp;
    char c;
  };
  // clang-format off
  static constexpr Pair kLookalikes[] = {
      // Cyrillic
      {0x0410, 'A'}, {0x0412, 'B'}, {0x0415, 'E'}, {0x041A, 'K'}, {0x041C, 'M'}, {0x041D, 'H'},
      {0x041E, 'O'}, {0x0420, 'P'}, {0x0421, 'C'}, {0x0422, 'T'}, {0x0423, 'Y'}, {0x0425, 'X'},
      {0x0405, 'S'}, {0x0406, 'I'}, {0x0408, 'J'}, {0x0430, 'a'}, {0x0435, 'e'}, {0x043E, 'o'},
      {0x0440, 'p'}, {0x0441, 'c'}, {0x0443, 'y'}, {0x0445, 'x'}, {0x0455, 's'}, {0x0456, 'i'},
      {0x0458, 'j'}, {0x04BB, 'h'}, {0x0501, 'd'}, {0x051B, 'q'}, {0x051D, 'w'},
      // Greek
      {0x0391, 'A'}, {0x0392, 'B'}, {0x0395, 'E'}, {0x0396, 'Z'}, {0x0397, 'H'}, {0x0399, 'I'},
      {0x039A, 'K'}, {0x039C, 'M'}, {0x039D, 'N'}, {0x039F, 'O'}, {0x03A1, 'P'}, {0x03A4, 'T'},
      {0x03A5, 'Y'}, {0x03A7, 'X'}, {0x03B1, 'a'}, {0x03B9, 'i'}, {0x03BD, 'v'}, {0x03BF, 'o'},
      {0x03C1, 'p'},
      // Small capitals (read as lower case: they do not start a camel-case piece)
      {0x1D00, 'a'}, {0x0299, 'b'}, {0x1D04, 'c'}, {0x1D05, 'd'}, {0x1D07, 'e'}, {0xA730, 'f'},
      {0x0262, 'g'}, {0x029C, 'h'}, {0x026A, 'i'}, {0x1D0A, 'j'}, {0x1D0B, 'k'}, {0x029F, 'l'},
      {0x1D0D, 'm'}, {0x0274, 'n'}, {0x1D0F, 'o'}, {0x1D18, 'p'}, {0x0280, 'r'}, {0xA731, 's'},
      {0x1D1B, 't'}, {0x1D1C, 'u'}, {0x1D20, 'v'}, {0x1D21, 'w'}, {0x028F, 'y'}, {0x1D22, 'z'},
  };
  // clang-format on
  for (const Pair& p : kLookalikes) {
    if (p.cp == cp) return p.c;
  }
  return 0;
}

enum class CharClass { kUpper, kLower, kDigit, kGap, kOther };

struct Folded {
  char c;
  CharClass cls;
  std::size_t start, end;  // bytes in the original text
};

bool is_gap_char(char c) {
  return c == ' ' || c == '\t' || c == '.' || c == '-' || c == '_' || c == '&' || c == '\'' ||
         c == '*' || c == '+' || c == '/' || c == ',' || c == ':' || c == '|' || c == '"';
}

std::vector<Folded> fold(std::string_view text, Span within) {
  std::vector<Folded> out;
  std::size_t end = std::min(within.end, text.size());
  for (std::size_t i = within.start; i < end;) {
    auto u = static_cast<unsigned char>(text[i]);
    if (u < 0x80) {
      char c = text[i];
      CharClass cls = (c >= 'A' && c <= 'Z')   ? CharClass::kUpper
                      : (c >= 'a' && c <= 'z') ? CharClass::kLower
                      : (c >= '0' && c <= '9') ? CharClass::kDigit
                      : is_gap_char(c)         ? CharClass::kGap
                                               : CharClass::kOther;
      out.push_back({c, cls, i, i + 1});
      ++i;
      continue;
    }
    const auto [cp, len] = decode_utf8(text.substr(0, end), i);
    char base = fold_code_point(cp);
    if (base != 0) {
      CharClass cls = (base >= 'A' && base <= 'Z')   ? CharClass::kUpper
                      : (base >= '0' && base <= '9') ? CharClass::kDigit
                                                     : CharClass::kLower;
      out.push_back({base, cls, i, i + len});
    } else {
      out.push_back({'?', CharClass::kOther, i, i + len});
    }
    i += len;
  }
  return out;
}

struct Piece {
  std::string text;  // lower case
  std::size_t start, end;
  std::size_t first, last;  // indexes into the folded characters
};

// Cuts the folded text into pieces: runs of letters (split at camel case)
// and runs of digits.
std::vector<Piece> pieces_of(const std::vector<Folded>& f) {
  std::vector<Piece> out;
  auto word_char = [](CharClass c) {
    return c == CharClass::kUpper || c == CharClass::kLower || c == CharClass::kDigit;
  };
  std::size_t i = 0;
  while (i < f.size()) {
    if (!word_char(f[i].cls)) {
      ++i;
      continue;
    }
    std::size_t s = i;
    bool digits = f[i].cls == CharClass::kDigit;
    ++i;
    while (i < f.size() && word_char(f[i].cls)) {
      CharClass prev = f[i - 1].cls, cur = f[i].cls;
      if ((cur == CharClass::kDigit) != digits) break;
      if (!digits) {
        // "payPal": lower then upper. "DHLExpress": an upper followed by a
        // lower after a run of uppers starts a new piece.
        if (prev == CharClass::kLower && cur == CharClass::kUpper) break;
        if (prev == CharClass::kUpper && cur == CharClass::kUpper && i + 1 < f.size() &&
            f[i + 1].cls == CharClass::kLower && i - s >= 2) {
          break;
        }
      }
      ++i;
    }
    Piece p;
    for (std::size_t k = s; k < i; ++k) p.text.push_back(ascii_lower(f[k].c));
    p.start = f[s].start;
    p.end = f[i - 1].end;
    p.first = s;
    p.last = i - 1;
    out.push_back(std::move(p));
  }
  return out;
}

// Whether the characters between two pieces may join them into one name
// ("Pay Pal", "Deutsche-Bank", "D/H/L", "AT&T"); not across other symbols
// or words.
bool joinable(const std::vector<Folded>& f, const Piece& a, const Piece& b) {
  std::size_t gap = b.first - a.last - 1;
  if (gap > 2) return false;
  for (std::size_t k = a.last + 1; k < b.first; ++k) {
    if (f[k].cls != CharClass::kGap) return false;
  }
  return true;
}

}  // namespace

bool is_service_word(std::string_view w) {
  return std::find(kServiceWords.begin(), kServiceWords.end(), w) != kServiceWords.end();
}

bool only_service_words(std::string_view text, Span within, Span except) {
  std::size_t end = std::min(within.end, text.size());
  std::string word;
  for (std::size_t i = within.start; i <= end; ++i) {
    bool inside = i < end && !(i >= except.start && i < except.end);
    char c = inside ? ascii_lower(text[i]) : ' ';
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || static_cast<unsigned char>(c) >= 0x80) {
      word.push_back(c);
      continue;
    }
    if (!word.empty() && !is_service_word(word)) return false;
    word.clear();
  }
  return true;
}

DisplayNameBrands::DisplayNameBrands(const BrandTable& table) {
  const std::vector<Brand>& brands = table.brands();
  auto add = [](Map& map, std::string key, int brand) {
    // Two characters at least, and a letter: "11" (of "1&1") is a number.
    if (key.size() < 2 || key.find_first_of("abcdefghijklmnopqrstuvwxyz") == std::string::npos) {
      return;
    }
    std::vector<int>& ids = map[std::move(key)];
    if (std::find(ids.begin(), ids.end(), brand) == ids.end()) ids.push_back(brand);
  };
  for (std::size_t b = 0; b < brands.size(); ++b) {
    const Brand& brand = brands[b];
    int id = static_cast<int>(b);
    for (const std::string& t : brand.tokens) add(names_, compact(t), id);
    for (const std::string& w : brand.words) add(names_, compact(w), id);
    for (const std::string& w : brand.host_words) add(ambiguous_, compact(w), id);
    // The display name spelled out in several words ("Bank of America",
    // "Western Union"); "PlayStation / Sony" names two.
    std::string_view name = brand.name;
    std::size_t s = 0;
    while (s <= name.size()) {
      std::size_t slash = name.find('/', s);
      std::size_t e = slash == std::string_view::npos ? name.size() : slash;
      std::string_view part = name.substr(s, e - s);
      if (part.find('(') != std::string_view::npos) part = part.substr(0, part.find('('));
      std::string key = compact(part);
      while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
      while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
      bool words = part.find(' ') != std::string_view::npos;
      if (words && key.size() >= 6) {
        add(names_, key, id);
      } else if (!key.empty() && names_.count(key) == 0) {
        // One-word names that are neither token nor word ("George" of Erste
        // Bank) are first names or common words as often as brands.
        add(ambiguous_, key, id);
      }
      if (slash == std::string_view::npos) break;
      s = slash + 1;
    }
  }
  // A name that is both (a token of one brand, a host word of another)
  // counts as unambiguous.
  for (auto it = ambiguous_.begin(); it != ambiguous_.end();) {
    if (names_.count(it->first) != 0) {
      it = ambiguous_.erase(it);
    } else {
      ++it;
    }
  }
  std::string skel;
  for (const auto& [key, ids] : names_) {
    if (key.size() < 5) continue;
    ascii_skeleton(key, skel);
    for (int b : ids) add(skeletons_, skel, b);
    if (key.size() >= 8 && key[0] >= 'a' && key[0] <= 'z') long_names_[key[0] - 'a'].push_back(key);
  }
  for (auto& v : long_names_) std::sort(v.begin(), v.end());
}

const std::vector<int>* DisplayNameBrands::lookup(const std::string& key, std::size_t pieces,
                                                  std::string& scratch, bool& ambiguous) const {
  ambiguous = false;
  if (auto it = names_.find(key); it != names_.end()) return &it->second;
  if (auto it = ambiguous_.find(key); it != ambiguous_.end()) {
    ambiguous = true;
    return &it->second;
  }
  if (key.size() < 5) return nullptr;
  ascii_skeleton(key, scratch);
  if (auto it = skeletons_.find(scratch); it != skeletons_.end()) return &it->second;
  // One typo in a long name; the first letter is kept by typos in practice.
  // A letter missing from a single word is often another word
  // ("telefonia" is not "telefonica"); in a name spelled out in several
  // words it is a typo ("America Express").
  if (key.size() < 8 || key[0] < 'a' || key[0] > 'z') return nullptr;
  for (const std::string& name : long_names_[key[0] - 'a']) {
    std::size_t a = name.size(), b = key.size();
    if ((a > b ? a - b : b - a) > 1) continue;
    if (b < a && pieces < 2) continue;
    if (edit_distance(key, name, 1) <= 1) return &names_.find(name)->second;
  }
  return nullptr;
}

void DisplayNameBrands::find(std::string_view text, Span within, std::vector<Claim>& out) const {
  std::vector<Folded> f = fold(text, within);
  std::vector<Piece> pieces = pieces_of(f);
  constexpr std::size_t kMaxPieces = 8;
  constexpr std::size_t kMaxLen = 32;
  struct Hit {
    int brand;
    std::size_t first, last;  // pieces
    bool ambiguous;
  };
  std::vector<Hit> hits;
  std::string key, scratch;
  for (std::size_t i = 0; i < pieces.size();) {
    bool found = false;
    // Longest run first: "Deutsche Bank" before "Deutsche".
    std::size_t last = i;
    while (last + 1 < pieces.size() && last + 1 - i < kMaxPieces &&
           joinable(f, pieces[last], pieces[last + 1])) {
      ++last;
    }
    for (std::size_t j = last + 1; j-- > i && !found;) {
      key.clear();
      for (std::size_t k = i; k <= j; ++k) key += pieces[k].text;
      if (key.size() > kMaxLen) continue;
      bool ambiguous = false;
      if (const std::vector<int>* ids = lookup(key, j - i + 1, scratch, ambiguous)) {
        for (int b : *ids) hits.push_back({b, i, j, ambiguous});
        found = true;
        i = j + 1;
      }
    }
    if (!found) ++i;
  }
  if (hits.empty()) return;
  // Ambiguous names need a name that is otherwise only brands and service
  // words ("Ledger Support", not "Ledger Nano Sale" or "Rogers Johnson").
  bool plain = true;
  for (std::size_t k = 0; k < pieces.size() && plain; ++k) {
    bool in_hit = false;
    for (const Hit& h : hits) in_hit = in_hit || (k >= h.first && k <= h.last);
    if (in_hit) continue;
    const std::string& w = pieces[k].text;
    bool digits = !w.empty() && w[0] >= '0' && w[0] <= '9';
    if (!digits && w.size() >= 2 && !is_service_word(w)) plain = false;
  }
  for (const Hit& h : hits) {
    if (h.ambiguous && !plain) continue;
    bool seen = false;
    for (const Claim& c : out) seen = seen || c.brand == h.brand;
    if (seen) continue;
    out.push_back({h.brand, {pieces[h.first].start, pieces[h.last].end}});
  }
}

Result<MailProviders> MailProviders::load(const DataSource& data) {
  constexpr std::string_view kPath = "lists/mail_providers.txt";
  Result<std::string> text = data.read(kPath);
  if (!text.ok()) return text.status();
  std::string problems;
  std::string name = data.describe(kPath);
  MailProviders mp;
  for (const ListEntry& e : parse_weighted_list(*text, name, problems)) {
    std::uint8_t tags = 0;
    for (const std::string& t : e.tags) {
      if (t == "freemail") {
        tags |= kFreemail;
      } else if (t == "esp") {
        tags |= kEsp;
      } else if (t == "mailhost") {
        tags |= kMailhost;
      } else if (t == "brand") {
        tags |= kBrandMail;
      } else {
        problems += name + ": unknown tag \"" + t + "\" for \"" + e.entry + "\"; ";
      }
    }
    if (tags == 0) problems += name + ": no tag for \"" + e.entry + "\"; ";
    mp.tags_[e.entry] |= tags;
  }
  if (!problems.empty()) return Status::invalid_argument(problems);
  return mp;
}

std::uint8_t MailProviders::tags(std::string_view registrable) const {
  auto it = tags_.find(registrable);
  return it == tags_.end() ? 0 : it->second;
}

}  // namespace scamcheck::internal
