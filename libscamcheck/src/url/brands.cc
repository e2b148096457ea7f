#include "url/brands.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

#include "util/ascii.h"
#include "util/json.h"
#include "util/recent.h"

namespace scamcheck::internal {
namespace {

bool is_lower_alpha(char c) { return c >= 'a' && c <= 'z'; }
bool is_lower_alnum(char c) { return is_lower_alpha(c) || is_digit(c); }

// Tokens of at most this many characters match only at the start of a word.
constexpr std::size_t kShortTokenLength = 5;

bool valid_token(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), is_lower_alnum);
}

bool valid_domain(std::string_view d) {
  if (d.empty() || d.front() == '.' || d.back() == '.' || d.find('.') == std::string_view::npos) {
    return false;
  }
  return std::all_of(d.begin(), d.end(),
                     [](char c) { return is_lower_alnum(c) || c == '-' || c == '.'; });
}

Status read_string_array(simdjson::dom::object obj, std::string_view field,
                         std::vector<std::string>& out, std::string_view where) {
  simdjson::dom::element el;
  if (obj[field].get(el)) return {};  // optional
  simdjson::dom::array arr;
  if (el.get_array().get(arr)) {
    return Status::invalid_argument(std::string(where) + ": \"" + std::string(field) +
                                    "\" must be an array of strings");
  }
  for (simdjson::dom::element item : arr) {
    std::string_view s;
    if (item.get_string().get(s)) {
      return Status::invalid_argument(std::string(where) + ": \"" + std::string(field) +
                                      "\" must be an array of strings");
    }
    out.emplace_back(s);
  }
  return {};
}

}  // namespace

// ---------------------------------------------------------------------------
// SubstringIndex

void SubstringIndex::add(std::string needle, int id) {
  if (needle.size() < 3) return;
  int idx = static_cast<int>(entries_.size());
  by_prefix_[static_cast<std::size_t>(slot(needle[0]) * kSlots + slot(needle[1]))].push_back(idx);
  entries_.push_back({std::move(needle), id});
}

void SubstringIndex::find_all(std::string_view text, std::vector<Hit>& out) const {
  if (entries_.empty() || text.size() < 3) return;
  int prev = slot(text[0]);
  for (std::size_t i = 0; i + 3 <= text.size(); ++i) {
    int cur = slot(text[i + 1]);
    const std::vector<int>& cands = by_prefix_[static_cast<std::size_t>(prev * kSlots + cur)];
    prev = cur;
    for (int idx : cands) {
      // The first two bytes are alike (the table); the third, tested
      // inline, rules out most candidates before the whole is compared.
      const Entry& e = entries_[static_cast<std::size_t>(idx)];
      const std::size_t len = e.needle.size();
      if (len <= text.size() - i && text[i + 2] == e.needle[2] &&
          std::memcmp(text.data() + i, e.needle.data(), len) == 0) {
        out.push_back({i, len, e.id});
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Distances between skeletons (the look-alike fold of detect/lookalike_fold.h)

int edit_distance(std::string_view a, std::string_view b, int limit) {
  const int n = static_cast<int>(a.size());
  const int m = static_cast<int>(b.size());
  if (std::abs(n - m) > limit) return limit + 1;
  if (n > 64 || m > 64) return limit + 1;
  // Three rolling rows for the optimal-string-alignment recurrence.
  int prev2[65], prev[65], cur[65];
  for (int j = 0; j <= m; ++j) prev[j] = j;
  for (int i = 1; i <= n; ++i) {
    cur[0] = i;
    int row_min = cur[0];
    for (int j = 1; j <= m; ++j) {
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      int v = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        v = std::min(v, prev2[j - 2] + 1);
      }
      cur[j] = v;
      row_min = std::min(row_min, v);
    }
    if (row_min > limit) return limit + 1;
    std::copy(prev, prev + m + 1, prev2);
    std::copy(cur, cur + m + 1, prev);
  }
  return prev[m];
}

namespace {

// True if a and b differ by exactly one substitution, insertion, deletion
// or swap of neighbours: the distance-1 case of edit_distance() in O(n).
bool one_edit(std::string_view a, std::string_view b) {
  if (a == b) return false;
  std::size_t n = a.size(), m = b.size();
  if (n > m + 1 || m > n + 1) return false;
  std::size_t i = 0;
  while (i < n && i < m && a[i] == b[i]) ++i;
  if (n == m) {
    if (a.substr(i + 1) == b.substr(i + 1)) return true;  // substitution
    return i + 1 < n && a[i] == b[i + 1] && a[i + 1] == b[i] && a.substr(i + 2) == b.substr(i + 2);
  }
  if (n > m) return a.substr(i + 1) == b.substr(i);
  return a.substr(i) == b.substr(i + 1);
}

// For short brands (5-6 letters) an arbitrary one-letter change is too often
// another word ("apple"/"apply", "chase"/"chose"). Only the edits that
// imitate the brand count: swapped neighbours, or a doubled / undoubled
// letter ("paypall", "gogle").
// Letters that pass for each other at a glance (after lower-casing).
bool confusable_letters(char a, char b) {
  auto pair = [&](char x, char y) { return (a == x && b == y) || (a == y && b == x); };
  return pair('i', 'l') || pair('u', 'v') || pair('g', 'q') || pair('c', 'e') || pair('c', 'o') ||
         pair('m', 'n');
}

bool imitating_edit(std::string_view q, std::string_view t) {
  if (q.size() == t.size()) {
    for (std::size_t i = 0; i < q.size(); ++i) {
      if (q[i] != t[i]) {
        if (confusable_letters(q[i], t[i]) && q.substr(i + 1) == t.substr(i + 1)) return true;
        return i + 1 < q.size() && q[i] == t[i + 1] && q[i + 1] == t[i] &&
               q.substr(i + 2) == t.substr(i + 2);
      }
    }
    return false;
  }
  std::string_view longer = q.size() > t.size() ? q : t;
  std::string_view shorter = q.size() > t.size() ? t : q;
  if (longer.size() != shorter.size() + 1) return false;
  // The brand cut short by its last letter: "paypa", "amazo".
  if (q.size() < t.size() && t.size() >= 6 && t.substr(0, q.size()) == q) return true;
  std::size_t i = 0;
  while (i < shorter.size() && longer[i] == shorter[i]) ++i;
  // longer[i] is the extra letter; it must double a neighbour.
  if (longer.substr(i + 1) != shorter.substr(i)) return false;
  return (i > 0 && longer[i - 1] == longer[i]) ||
         (i + 1 < longer.size() && longer[i + 1] == longer[i]);
}

}  // namespace

// ---------------------------------------------------------------------------
// BrandTable

Result<std::unique_ptr<BrandTable>> BrandTable::load(const DataSource& data) {
  constexpr std::string_view kBrands = "lists/brands.json";
  constexpr std::string_view kWords = "lists/phishing_wildcard_words.txt";
  Result<std::string> json = data.read(kBrands);
  if (!json.ok()) return json.status();
  Result<std::unique_ptr<BrandTable>> table = load(*json, data.describe(kBrands));
  if (!table.ok()) return table;
  Result<std::string> words = data.read(kWords);
  if (!words.ok()) return words.status();
  for (std::string& w : parse_list(*words)) {
    if (!valid_token(w)) {
      return Status::invalid_argument(data.describe(kWords) + ": \"" + w +
                                      "\" is not lower-case letters and digits");
    }
    table.value()->phishing_words_.push_back(std::move(w));
  }
  return table;
}

bool BrandTable::has_phishing_word(std::string_view part) const {
  for (const std::string& w : phishing_words_) {
    if (part.find(w) != std::string_view::npos) return true;
  }
  return false;
}

Result<std::unique_ptr<BrandTable>> BrandTable::load(std::string_view json, std::string_view name) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string text(json);
  if (Status s = parse_data_file(parser, text, name, doc); !s.ok()) return s;
  simdjson::dom::array arr;
  if (doc["brands"].get_array().get(arr)) {
    return Status::invalid_argument(std::string(name) + ": \"brands\" must be an array");
  }
  auto table = std::make_unique<BrandTable>();
  std::string problems;
  std::unordered_set<std::string> ids;
  auto problem = [&](const std::string& msg) {
    if (!problems.empty()) problems += "; ";
    problems += msg;
  };
  std::vector<std::string> open_platforms;
  simdjson::dom::object root;
  if (doc.get_object().get(root) || root["open_platform_categories"].error()) {
    problem(std::string(name) +
            ": \"open_platform_categories\" (an array of categories) is required");
  } else if (Status s = read_string_array(root, "open_platform_categories", open_platforms, name);
             !s.ok()) {
    problem(s.message());
  }
  for (simdjson::dom::element item : arr) {
    simdjson::dom::object obj;
    if (item.get_object().get(obj)) {
      problem("every brand must be an object");
      continue;
    }
    Brand b;
    b.id = std::string(string_field(obj, "id"));
    b.name = std::string(string_field(obj, "name"));
    b.category = std::string(string_field(obj, "category"));
    b.open_platform =
        std::find(open_platforms.begin(), open_platforms.end(), b.category) != open_platforms.end();
    std::string where = std::string(name) + ": brand \"" + b.id + "\"";
    if (b.id.empty() || b.name.empty()) {
      problem(where + ": \"id\" and \"name\" are required");
      continue;
    }
    if (!ids.insert(b.id).second) problem(where + ": duplicate id");
    for (auto [field, vec] :
         {std::pair<std::string_view, std::vector<std::string>*>{"domains", &b.domains},
          {"domain_patterns", &b.domain_patterns},
          {"tokens", &b.tokens},
          {"words", &b.words},
          {"host_words", &b.host_words}}) {
      if (Status s = read_string_array(obj, field, *vec, where); !s.ok()) problem(s.message());
    }
    bool any = false;
    if (!obj["any_cctld"].get_bool().get(any)) b.any_cctld = any;
    if (b.domains.empty()) problem(where + ": at least one official domain is required");
    for (const std::string& d : b.domains) {
      if (!valid_domain(d)) problem(where + ": bad domain \"" + d + "\"");
    }
    for (const std::string& p : b.domain_patterns) {
      std::size_t star = p.find('*');
      if (star == std::string::npos || p.find('*', star + 1) != std::string::npos ||
          p.find('.', star) == std::string::npos) {
        problem(where + ": bad domain pattern \"" + p + "\" (one '*' in the first label)");
      }
    }
    for (const std::string& t : b.tokens) {
      if (!valid_token(t) || t.size() < 4) {
        problem(where + ": token \"" + t + "\" must be >= 4 lower-case letters/digits");
      }
    }
    for (const auto* list : {&b.words, &b.host_words}) {
      for (const std::string& w : *list) {
        if (!valid_token(w) || w.size() < 2) {
          problem(where + ": word \"" + w + "\" must be >= 2 lower-case letters/digits");
        }
      }
    }
    table->brands_.push_back(std::move(b));
  }
  if (!problems.empty()) return Status::invalid_argument(problems);
  if (table->brands_.empty()) return Status::invalid_argument(std::string(name) + ": no brands");
  table->index();
  return table;
}

void BrandTable::index() {
  std::unordered_set<std::string> name_set;
  std::string skel;
  auto add_target = [&](const std::string& s, int brand, bool typos) {
    ascii_skeleton(s, skel);
    if (skel.size() < 4) return;
    int idx = static_cast<int>(targets_.size());
    skeleton_exact_.emplace(skel, idx);  // the first brand keeps a shared skeleton
    // Look-alikes inside longer labels ("paypa1-login") only for names of
    // six letters or more: shorter skeletons occur inside ordinary words.
    if (typos && skel.size() >= 6) token_skeletons_.add(skel, brand);
    targets_.push_back({skel, s, brand, char_set(skel)});
    if (!typos || skel.size() < 5) return;
    char first = skel[0];
    if (first >= 'a' && first <= 'z') {
      typo_targets_[first - 'a'].push_back(idx);
      if (skel.size() < kTypoLengths) typo_by_length_[first - 'a'][skel.size()].push_back(idx);
    }
  };
  for (int bi = 0; bi < static_cast<int>(brands_.size()); ++bi) {
    const Brand& b = brands_[static_cast<std::size_t>(bi)];
    for (const std::string& d : b.domains) official_[d].push_back(bi);
    for (const std::string& p : b.domain_patterns) {
      std::size_t star = p.find('*');
      patterns_.push_back({bi, p.substr(0, star), p.substr(star + 1)});
    }
    if (b.any_cctld) {
      // Only labels that are the brand's own name ("google", not "goo" of
      // goo.gl or "me" of me.com).
      for (const std::string& d : b.domains) {
        std::string label = d.substr(0, d.find('.'));
        bool is_name = std::find(b.tokens.begin(), b.tokens.end(), label) != b.tokens.end() ||
                       std::find(b.words.begin(), b.words.end(), label) != b.words.end();
        if (is_name) cctld_labels_.emplace(label, bi);
      }
    }
    for (const std::string& t : b.tokens) {
      tokens_.add(t, bi);
      add_target(t, bi, true);
      if (t.size() >= 4) name_set.insert(t);
    }
    for (const std::string& w : b.words) {
      words_[w].push_back({bi, false});
      add_target(w, bi, false);
      if (w.size() >= 4) name_set.insert(w);
    }
    for (const std::string& w : b.host_words) words_[w].push_back({bi, true});
    for (const auto* list : {&b.words, &b.host_words}) {
      for (const std::string& w : *list) {
        if (w.size() <= 40)
          word_shapes_[static_cast<std::size_t>(w[0] & 0x7F) * 41 + w.size()] = true;
      }
    }
  }
  names_.assign(name_set.begin(), name_set.end());
  std::sort(names_.begin(), names_.end());
}

bool BrandTable::is_official_for(int brand, std::string_view registrable, bool cctld_ok) const {
  return official_brand_among(brand, registrable, cctld_ok) >= 0;
}

int BrandTable::official_brand(std::string_view registrable, bool cctld_ok) const {
  return official_brand_among(-1, registrable, cctld_ok);
}

// The brand (`only`, or any when -1) whose official domain `registrable` is.
int BrandTable::official_brand_among(int only, std::string_view registrable, bool cctld_ok) const {
  if (registrable.empty()) return -1;
  if (auto it = official_.find(registrable); it != official_.end()) {
    if (only < 0) return it->second.front();
    if (std::find(it->second.begin(), it->second.end(), only) != it->second.end()) return only;
  }
  for (const Pattern& p : patterns_) {
    if (only >= 0 && p.brand != only) continue;
    if (registrable.size() <= p.prefix.size() + p.suffix.size()) continue;
    if (registrable.compare(0, p.prefix.size(), p.prefix) != 0) continue;
    if (registrable.compare(registrable.size() - p.suffix.size(), p.suffix.size(), p.suffix) != 0)
      continue;
    std::string_view mid =
        registrable.substr(p.prefix.size(), registrable.size() - p.prefix.size() - p.suffix.size());
    if (mid.find('.') != std::string_view::npos || has_phishing_word(mid)) continue;
    return p.brand;
  }
  if (cctld_ok) {
    std::size_t dot = registrable.find('.');
    if (dot != std::string_view::npos) {
      auto c = cctld_labels_.find(registrable.substr(0, dot));
      if (c != cctld_labels_.end() && (only < 0 || c->second == only)) return c->second;
    }
  }
  return -1;
}

bool BrandTable::is_official(std::string_view registrable, bool cctld_ok) const {
  return official_brand(registrable, cctld_ok) >= 0;
}

bool BrandTable::mentions_official_domain(int brand, std::string_view text) const {
  if (brand < 0 || static_cast<std::size_t>(brand) >= brands_.size() || text.size() > 4096)
    return false;
  for (const std::string& d : brands_[static_cast<std::size_t>(brand)].domains) {
    if (d.size() > text.size()) continue;
    for (std::size_t i = 0; i + d.size() <= text.size(); ++i) {
      std::size_t k = 0;
      while (k < d.size()) {
        char c = text[i + k];
        c = ascii_lower(c);
        if (c != d[k]) break;
        ++k;
      }
      if (k == d.size()) return true;
    }
  }
  return false;
}

void BrandTable::find_mentions(std::string_view text, bool in_host,
                               std::vector<Mention>& out) const {
  // Distinctive tokens: anywhere, also across '-', '_' and '.' ("deutsche-
  // bank" finds "deutschebank"), so search a compacted copy.
  char compact[256];
  std::uint16_t origin[256];
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size() && n < sizeof compact; ++i) {
    char c = text[i];
    c = ascii_lower(c);
    if (!is_lower_alnum(c)) continue;
    compact[n] = c;
    origin[n] = static_cast<std::uint16_t>(i);
    ++n;
  }
  if (text.size() > sizeof compact) {
    // Long paths: search the text itself (no compaction) to stay bounded.
    n = 0;
  }
  std::vector<SubstringIndex::Hit> hits;
  // A short token ("xbox", "gmail", "ebay") inside a longer word is most
  // often part of another name ("fluxbox", "enigmail"): it counts only
  // where a word starts (the text's start, or after anything but a letter).
  auto starts_word = [&](std::size_t s, std::size_t len) {
    if (len > kShortTokenLength || s == 0) return true;
    const char c = text[s - 1];
    return !is_alpha(c);
  };
  if (n > 0) {
    tokens_.find_all(std::string_view(compact, n), hits);
    for (const auto& h : hits) {
      std::size_t s = origin[h.pos];
      std::size_t e = static_cast<std::size_t>(origin[h.pos + h.len - 1]) + 1;
      if (!starts_word(s, h.len)) continue;
      out.push_back({h.id, s, e - s});
    }
  } else {
    tokens_.find_all(text, hits);
    for (const auto& h : hits) {
      if (!starts_word(h.pos, h.len)) continue;
      out.push_back({h.id, h.pos, h.len});
    }
  }
  // Whole words: split on anything but letters and digits, and again on
  // anything but letters ("dhl24" -> "dhl").
  auto lookup = [&](std::size_t s, std::size_t e) {
    if (e - s < 2 || e - s > 40) return;
    char buf[40];
    for (std::size_t k = s; k < e; ++k) {
      char c = text[k];
      buf[k - s] = ascii_lower(c);
    }
    if (!word_shapes_[static_cast<std::size_t>(buf[0] & 0x7F) * 41 + (e - s)]) return;
    auto it = words_.find(std::string_view(buf, e - s));
    if (it == words_.end()) return;
    for (const WordEntry& w : it->second) {
      // Ambiguous names ("au", "sky", "line") only as one part of a longer
      // host label: "au-login" yes, "au" (a country sub-domain) no.
      if (w.host_only && (!in_host || (s == 0 && e == text.size()))) continue;
      out.push_back({w.brand, s, e - s});
    }
  };
  for (int pass = 0; pass < 2; ++pass) {
    std::size_t i = 0;
    while (i < text.size()) {
      auto inside = [&](char c) { return pass == 0 ? is_alnum(c) : is_alpha(c); };
      if (!inside(text[i])) {
        ++i;
        continue;
      }
      std::size_t s = i;
      while (i < text.size() && inside(text[i])) ++i;
      // The letter-only pass repeats words without digits; skip those.
      if (pass == 1) {
        bool had_digit_neighbour =
            (s > 0 && is_digit(text[s - 1])) || (i < text.size() && is_digit(text[i]));
        if (!had_digit_neighbour) continue;
      }
      lookup(s, i);
    }
  }
}

std::uint64_t BrandTable::char_set(std::string_view s) {
  std::uint64_t set = 0;
  for (char c : s) set |= std::uint64_t{1} << (static_cast<unsigned char>(c) & 63);
  return set;
}

int BrandTable::find_edit_target(std::string_view skel) const {
  if (skel.size() < 4 || skel.size() > 40 || skel[0] < 'a' || skel[0] > 'z') return -1;
  const std::uint64_t chars = char_set(skel);
  // The nearest target, the first in target order among equals; only the
  // targets within two letters of the length can be near enough.
  int best = -1;
  int best_d = 3;
  const auto& by_length = typo_by_length_[skel[0] - 'a'];
  for (std::size_t len = skel.size() - 2; len <= skel.size() + 2; ++len) {
    for (int idx : by_length[len]) {
      const Target& t = targets_[static_cast<std::size_t>(idx)];
      if (t.skeleton == skel) continue;
      int allowed = t.skeleton.size() >= 12 ? 2 : 1;
      std::size_t diff = t.skeleton.size() > skel.size() ? t.skeleton.size() - skel.size()
                                                         : skel.size() - t.skeleton.size();
      if (diff > static_cast<std::size_t>(allowed)) continue;
      if (std::popcount(chars ^ t.chars) > 2 * allowed) continue;  // more than `allowed` edits
      int d = allowed == 1 ? (one_edit(skel, t.skeleton) ? 1 : 2)
                           : edit_distance(skel, t.skeleton, allowed);
      if (d > allowed) continue;
      // Typosquats keep the first letter (checked by the bucket); and for
      // names of up to 7 letters an arbitrary change is too often another
      // word ("online"/"tonline").
      if (t.skeleton.size() <= 7 && !imitating_edit(skel, t.skeleton)) continue;
      if (d < best_d || (d == best_d && idx < best)) {
        best_d = d;
        best = idx;
      }
    }
  }
  return best;
}

std::uint64_t BrandTable::next_serial() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

LookalikeMatch BrandTable::lookalike(std::string_view label, std::string_view skeleton) const {
  thread_local RecentAnswers<LookalikeMatch, 1024> recent;
  thread_local std::string key;
  key.assign(reinterpret_cast<const char*>(&serial_), sizeof serial_);
  key.append(label);
  key.push_back('\0');
  key.append(skeleton);
  return recent.get(key, [&](LookalikeMatch& m) { m = lookalike_uncached(label, skeleton); });
}

LookalikeMatch BrandTable::lookalike_uncached(std::string_view label,
                                              std::string_view skeleton) const {
  LookalikeMatch m;
  // 1. The brand itself inside the label: "paypal-secure", "amazonjp".
  std::vector<Mention> mentions;
  find_mentions(label, true, mentions);
  if (!mentions.empty()) {
    m.kind = LookalikeKind::kContainsBrand;
    m.brand = mentions.front().brand;
    m.pos = mentions.front().pos;
    m.len = mentions.front().len;
    return m;
  }
  // 2. Same skeleton as a brand: homoglyphs and digit-for-letter swaps.
  if (auto it = skeleton_exact_.find(skeleton); it != skeleton_exact_.end()) {
    const Target& t = targets_[static_cast<std::size_t>(it->second)];
    if (t.original != label) {
      m.kind = LookalikeKind::kHomoglyph;
      m.brand = t.brand;
      m.pos = 0;
      m.len = label.size();
      return m;
    }
  }
  // The brand imitated inside a longer label: "paypa1-login" -> "paypal".
  // Only when the label really uses imitation characters (digits for
  // letters, "rn" for "m", non-ASCII); an i/l difference alone inside a
  // longer word is too common ("mindmeister" is not "elster").
  bool imitation = false;
  for (std::size_t i = 0; i < label.size(); ++i) {
    char c = label[i];
    if ((c >= '0' && c <= '9' && c != '2' && c != '6') || c == '|' ||
        static_cast<unsigned char>(c) >= 0x80 ||
        (i + 1 < label.size() &&
         ((c == 'r' && label[i + 1] == 'n') || (c == 'v' && label[i + 1] == 'v')))) {
      imitation = true;
      break;
    }
  }
  if (imitation && skeleton != label && skeleton.size() < 256) {
    std::vector<SubstringIndex::Hit> hits;
    char compact[256];
    std::size_t n = 0;
    for (char c : skeleton) {
      if (is_lower_alnum(c)) compact[n++] = c;
    }
    token_skeletons_.find_all(std::string_view(compact, n), hits);
    if (!hits.empty()) {
      m.kind = LookalikeKind::kHomoglyph;
      m.brand = hits.front().id;
      m.pos = 0;
      m.len = label.size();
      return m;
    }
  }
  // 3. One or two edits away: typosquats.
  int t = find_edit_target(skeleton);
  if (t >= 0) {
    m.kind = LookalikeKind::kTypo;
    m.brand = targets_[static_cast<std::size_t>(t)].brand;
    m.pos = 0;
    m.len = label.size();
    return m;
  }
  // 4. A typo of the brand glued to other words: "netfilxmobile",
  // "amazcnonline". Only the start of the label, where the brand goes.
  if (skeleton.size() >= 8 && skeleton[0] >= 'a' && skeleton[0] <= 'z' &&
      skeleton.size() == label.size()) {
    // char_set() of each prefix: one edit or none changes it by at most
    // two bits, which rules out most targets before comparing.
    std::uint64_t prefix_chars[kTypoLengths + 1];
    std::size_t known = std::min(skeleton.size(), kTypoLengths);
    prefix_chars[0] = 0;
    for (std::size_t k = 0; k < known; ++k) {
      prefix_chars[k + 1] = prefix_chars[k] | std::uint64_t{1}
                                                  << (static_cast<unsigned char>(skeleton[k]) & 63);
    }
    for (int idx : typo_targets_[skeleton[0] - 'a']) {
      const Target& tg = targets_[static_cast<std::size_t>(idx)];
      std::size_t n = tg.skeleton.size();
      if (n < 6 || skeleton.size() < n + 3) continue;
      // Same length (a changed letter, swapped neighbours) or one letter
      // more; not shorter: "telegra" + "phindia" is no "telegram".
      for (std::size_t len = n; len <= n + 1; ++len) {
        if (len <= known && std::popcount(prefix_chars[len] ^ tg.chars) > 2) continue;
        std::string_view prefix = skeleton.substr(0, len);
        if (prefix == tg.skeleton) {
          // Same skeleton: a plain mention (found in step 1) or a swap
          // of look-alike letters such as "netfilx" for "netflix".
          if (label.substr(0, len) == tg.original) continue;
        } else if (!one_edit(prefix, tg.skeleton) || !imitating_edit(prefix, tg.skeleton)) {
          continue;
        }
        m.kind = LookalikeKind::kTypo;
        m.brand = tg.brand;
        m.pos = 0;
        m.len = len;
        return m;
      }
    }
  }
  return m;
}

}  // namespace scamcheck::internal
