#include "url/url_checks.h"

#include <unicode/uspoof.h>

#include <algorithm>
#include <atomic>

#include "url/host_heuristics.h"
#include "url/path_checks.h"
#include "url/public_suffix.h"
#include "util/ascii.h"
#include "util/recent.h"

namespace scamcheck::internal {
namespace {

using namespace url_keys;  // NOLINT: the key names read better unqualified

// Where the evidence for part [off, off+len) of the normalized host is in the
// URL: the part itself when the host is written as normalized (ASCII, no
// escapes), else the whole written host.
struct HostMap {
  Range written;
  bool direct = false;
  Range part(std::size_t off, std::size_t len) const {
    if (!direct) return written;
    return {written.start + off, written.start + off + len};
  }
};

// `text` lower-cased with everything but letters and digits removed, so that
// "log-in" and "Sign_In" find "login" and "signin"; `origin` maps each byte
// back to `text`.
void compact(std::string_view text, std::string& out, std::vector<std::uint32_t>& origin) {
  out.clear();
  origin.clear();
  for (std::size_t i = 0; i < text.size() && out.size() < 2048; ++i) {
    char c = ascii_lower(text[i]);
    if (is_alpha(c) || is_digit(c)) {
      out.push_back(c);
      origin.push_back(static_cast<std::uint32_t>(i));
    }
  }
}

// A query value that is itself a URL: "http://...", "https%3A%2F%2F...".
bool looks_like_url(std::string_view v) {
  for (std::size_t i = 0; i + 4 <= v.size(); ++i) {
    if (ascii_lower(v[i]) == 'h' && ascii_lower(v[i + 1]) == 't' && ascii_lower(v[i + 2]) == 't' &&
        ascii_lower(v[i + 3]) == 'p') {
      return true;
    }
  }
  return v.find("www.") != std::string_view::npos;
}

// Whether a path up to a segment ends in an embedded scheme ("/r/http://"),
// so that the segment is the host of a redirect target.
bool after_scheme(std::string_view before) {
  for (std::string_view scheme : {std::string_view("http://"), std::string_view("https://")}) {
    if (before.size() >= scheme.size() &&
        equals_ci(before.substr(before.size() - scheme.size()), scheme)) {
      return true;
    }
  }
  return false;
}

// Keyword hits sorted by position, overlaps removed (the longest hit at a
// position wins: "secure" over "secur").
void select_hits(std::vector<SubstringIndex::Hit>& hits) {
  std::sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) {
    return a.pos != b.pos ? a.pos < b.pos : a.len > b.len;
  });
  std::size_t out = 0;
  std::size_t end = 0;
  for (std::size_t i = 0; i < hits.size(); ++i) {
    if (out > 0 && hits[i].pos < end) continue;
    end = hits[i].pos + hits[i].len;
    hits[out++] = hits[i];
  }
  hits.resize(out);
}

// Images, style sheets and scripts are not log-in pages, whatever their
// directory is called ("/library/accounts/kids.jpg").
bool static_resource(std::string_view path) {
  std::size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return false;
  std::string_view ext = path.substr(dot + 1);
  for (std::string_view e :
       {"jpg", "jpeg", "png", "gif", "svg", "ico", "webp", "css", "js", "woff", "woff2"}) {
    if (equals_ci(ext, e)) return true;
  }
  return false;
}

// An IPFS content identifier or IPNS key as gateways read them: CIDv0
// ("Qm" and 44 base58 characters), CIDv1 in base32 ("bafy...") or base36
// ("k51...") and libp2p keys ("12D3KooW..."). Case matters only for base58;
// host names are lower-cased, so only base32 and base36 can appear there.
bool is_ipfs_id(std::string_view s) {
  auto all = [&](std::size_t from, auto pred) {
    return std::all_of(s.begin() + static_cast<std::ptrdiff_t>(from), s.end(), pred);
  };
  auto base58 = [](char c) { return is_alnum(c) && c != '0' && c != 'O' && c != 'I' && c != 'l'; };
  auto lower_alnum = [](char c) { return is_digit(c) || (c >= 'a' && c <= 'z'); };
  if (s.size() == 46 && s.substr(0, 2) == "Qm") return all(2, base58);
  if (s.size() >= 50 && s.size() <= 64 && s.substr(0, 8) == "12D3KooW") return all(8, base58);
  if (s.size() >= 50 && s.size() <= 100 && (s[0] == 'b' || s[0] == 'k')) return all(1, lower_alnum);
  return false;
}

// Where a URL shows content published on IPFS: "/ipfs/<id>" or
// "/ipns/<id>" at the start of the path, or a sub-domain "<id>.ipfs." /
// "<id>.ipns." of a gateway. Empty if it shows none.
Range ipfs_content(std::string_view url, const ParsedUrl& p, std::string_view host,
                   const HostLabels& labels, const HostMap& hm) {
  const std::string_view path = url.substr(p.path.start, p.path.size());
  for (std::string_view head : {"/ipfs/", "/ipns/"}) {
    if (path.substr(0, head.size()) != head) continue;
    const std::size_t end = std::min(path.find('/', head.size()), path.size());
    if (is_ipfs_id(path.substr(head.size(), end - head.size()))) {
      return {p.path.start, p.path.start + end};
    }
  }
  for (std::size_t i = 0; i + 2 < labels.count; ++i) {
    const HostLabel& id = labels.items[i];
    const std::string_view next = host.substr(labels.items[i + 1].off, labels.items[i + 1].len);
    if ((next == "ipfs" || next == "ipns") && is_ipfs_id(host.substr(id.off, id.len))) {
      return hm.part(id.off, id.len);
    }
  }
  return {};
}

}  // namespace

double UrlChecker::randomness(std::string_view label) const {
  return label_randomness(label, lists_.rare_bigrams);
}

Result<std::unique_ptr<UrlChecker>> UrlChecker::create(std::unique_ptr<BrandTable> brands,
                                                       UrlLists lists) {
  static std::atomic<std::uint64_t> next_serial{1};
  std::unique_ptr<UrlChecker> c(new UrlChecker());
  c->serial_ = next_serial.fetch_add(1, std::memory_order_relaxed);
  c->brands_ = std::move(brands);
  c->lists_ = std::move(lists);
  for (std::size_t i = 0; i < c->lists_.keywords.size(); ++i) {
    c->keywords_.add(c->lists_.keywords[i].word, static_cast<int>(i));
  }
  UErrorCode status = U_ZERO_ERROR;
  c->spoof_ = uspoof_open(&status);
  if (U_FAILURE(status) || c->spoof_ == nullptr) {
    return Status::internal(std::string("ICU uspoof_open failed: ") + u_errorName(status));
  }
  return c;
}

UrlChecker::~UrlChecker() {
  if (spoof_ != nullptr) uspoof_close(spoof_);
}

LookalikeMatch UrlChecker::label_lookalike(std::string_view label,
                                           std::string_view uni_label) const {
  std::string skel;
  label_skeleton(spoof_, uni_label, skel);
  LookalikeMatch lm = brands_->lookalike(uni_label, skel);
  if (lm.kind != LookalikeKind::kNone || uni_label != label) return lm;
  // "paypall-login", "secure-arnazon": one hyphen-separated part.
  if (label.find('-') != std::string_view::npos) {
    std::size_t s = 0;
    while (s < label.size()) {
      std::size_t d = label.find('-', s);
      std::size_t e = d == std::string_view::npos ? label.size() : d;
      if (e - s >= 4 && e - s < label.size()) {
        std::string_view part = label.substr(s, e - s);
        ascii_skeleton(part, skel);
        LookalikeMatch pm = brands_->lookalike(part, skel);
        if (pm.kind == LookalikeKind::kTypo || pm.kind == LookalikeKind::kHomoglyph) {
          pm.pos = s + (pm.len < part.size() ? pm.pos : 0);
          if (pm.len >= part.size() || pm.len == 0) pm.len = e - s;
          return pm;
        }
      }
      if (d == std::string_view::npos) break;
      s = d + 1;
    }
  }
  // "appleaccounts", "secureappleverify": a brand word between keywords.
  // The label is cut at keywords, hyphens and digits; a piece that is
  // exactly a brand word counts.
  std::vector<SubstringIndex::Hit> hits;
  keywords_.find_all(label, hits);
  select_hits(hits);
  // "wwwapple": a "www" glued to the front.
  if (label.size() > 6 && label.compare(0, 3, "www") == 0) hits.insert(hits.begin(), {0, 3, -1});
  if (hits.empty()) return lm;
  std::vector<BrandTable::Mention> mentions;
  std::size_t a = 0;
  auto piece = [&](std::size_t from, std::size_t to) -> bool {
    std::size_t x = from;
    while (x < to) {
      std::size_t y = x;
      while (y < to && label[y] >= 'a' && label[y] <= 'z') ++y;
      if (y - x >= 3) {
        mentions.clear();
        brands_->find_mentions(label.substr(x, y - x), false, mentions);
        for (const auto& m : mentions) {
          if (m.pos != 0 || m.len != y - x) continue;  // the whole piece only
          lm.kind = LookalikeKind::kContainsBrand;
          lm.brand = m.brand;
          lm.pos = x;
          lm.len = m.len;
          lm.word = true;  // delimited by keywords: "apple" in "appleaccounts"
          return true;
        }
      }
      x = y + 1;
    }
    return false;
  };
  for (const auto& h : hits) {
    if (h.pos > a && piece(a, h.pos)) return lm;
    a = std::max(a, h.pos + h.len);
  }
  if (a < label.size()) piece(a, label.size());
  return lm;
}

// Everything one check() call learns about its URL, shared by the steps.
struct UrlChecker::State {
  std::string_view url;
  const ParsedUrl& p;
  std::vector<UrlSignal>& out;
  std::string& registrable;

  std::string_view host;  // normalized
  HostMap hm;
  bool ip = false;
  std::string icann;  // ICANN public suffix
  std::string_view tld;
  HostLabels labels;
  std::size_t reg_off = 0;  // offset of the registrable domain in host
  std::size_t reg_idx = 0;  // its first label
  bool official = false;    // a brand's official domain
  bool hosted = false;      // a user's sub-domain of a free hosting parent
  LookalikeMatch registrable_lookalike;

  // obfuscated_url: the strongest reason wins.
  double obfuscation = 0;
  Range obfuscation_range;
  void obfuscated(Range r, double s) {
    if (s > obfuscation) {
      obfuscation = s;
      obfuscation_range = r;
    }
  }

  // Keyword bookkeeping (distinct keyword ids; a negative id is a
  // structural hint: -1 pre-filled address).
  std::vector<int> kw_host, kw_path;
  Range kw_range;
  double kw_strength = 0;
  bool login_words = false;
  Range brand_range;          // brand_in_path evidence
  bool mention_site = false;  // brand names in paths are normal here
  std::string compacted;
  std::vector<std::uint32_t> origin;
  std::vector<SubstringIndex::Hit> hits;

  State(std::string_view u, const ParsedUrl& parsed, std::vector<UrlSignal>& o, std::string& r)
      : url(u), p(parsed), out(o), registrable(r) {}
  std::string_view label(std::size_t i) const {
    return host.substr(labels.items[i].off, labels.items[i].len);
  }
  // The sub-domain part of the host (without the dot before the
  // registrable domain); empty if none.
  std::size_t sub_end() const { return reg_off > 0 ? reg_off - 1 : 0; }
};

void UrlChecker::check(std::string_view url, const ParsedUrl& p, std::vector<UrlSignal>& out,
                       std::string& registrable) const {
  // A long URL (up to 8 KB) is checked afresh: the memo keeps at most
  // 512 URLs of at most kMemoUrlBytes per thread.
  constexpr std::size_t kMemoUrlBytes = 512;
  if (url.size() > kMemoUrlBytes) {
    check_uncached(url, p, out, registrable);
    return;
  }
  struct Answer {
    std::vector<UrlSignal> signals;
    std::string registrable;
  };
  thread_local RecentAnswers<Answer, 512> recent;
  thread_local std::string key;
  key.assign(reinterpret_cast<const char*>(&serial_), sizeof serial_);
  key.append(url);
  const Answer& a = recent.get(key, [&](Answer& fresh) {
    fresh.signals.clear();
    check_uncached(url, p, fresh.signals, fresh.registrable);
  });
  out.insert(out.end(), a.signals.begin(), a.signals.end());
  registrable = a.registrable;
}

void UrlChecker::check_uncached(std::string_view url, const ParsedUrl& p,
                                std::vector<UrlSignal>& out, std::string& registrable) const {
  registrable.clear();
  const std::string& scheme = p.scheme;
  if (scheme == "javascript" || scheme == "vbscript" || scheme == "data") {
    out.push_back({kScriptUrl, {p.scheme_range.start, p.scheme_range.end + 1}, 1.0});
    return;
  }
  if ((scheme != "http" && scheme != "https" && scheme != "ftp") || p.host_range.empty() ||
      p.host_kind == HostKind::kNone) {
    return;
  }
  State st(url, p, out, registrable);
  st.host = p.host;
  st.hm.written = p.host_range;
  std::string_view w = url.substr(p.host_range.start, p.host_range.size());
  while (!w.empty() && w.back() == '.') w.remove_suffix(1);
  st.hm.direct = !p.host_percent_encoded && !p.host_written_unicode && equals_ci(w, st.host);
  st.ip = p.host_kind == HostKind::kIpv4 || p.host_kind == HostKind::kIpv6;

  check_authority(st);
  check_host(st);
  // Brand, keyword and randomness checks are not for official brand
  // domains; but on a hosting parent that is itself a brand's domain
  // (sharepoint.com, amazonaws.com) the sub-domains are someone else's.
  if (!st.official || st.hosted) {
    if (!st.ip && st.labels.count > 0) check_host_names(st);
    check_path(st);
    PathShapeInput shape;
    shape.url = url;
    shape.p = &p;
    shape.host = st.host;
    shape.registrable = st.registrable;
    shape.mention_site = st.mention_site;
    shape.brand_range = st.brand_range;
    shape.asset_folders = &lists_.asset_folders;
    check_path_shape(shape, out);
    if (st.kw_strength > 0) {
      out.push_back({kPhishingKeywords, st.kw_range, std::min(st.kw_strength, 1.0)});
    }
    if (scheme == "http" && st.login_words &&
        !static_resource(url.substr(p.path.start, p.path.size()))) {
      out.push_back({kInsecureLoginPage, Range{}, 1.0});
    }
  }
  if (st.obfuscation > 0) out.push_back({kObfuscatedUrl, st.obfuscation_range, st.obfuscation});
}

void UrlChecker::check_authority(State& st) const {
  const ParsedUrl& p = st.p;
  std::string_view url = st.url;
  if (!p.userinfo.empty()) {
    std::string_view ui = url.substr(p.userinfo.start, p.userinfo.size());
    std::vector<BrandTable::Mention> m;
    brands_->find_mentions(ui, true, m);
    bool looks_like_host = ui.find('.') != std::string_view::npos || !m.empty();
    st.out.push_back({kUserinfoTrick, p.userinfo, looks_like_host ? 1.0 : 0.6});
  }
  if (p.at_signs >= 2) st.obfuscated(p.authority, 1.0);
  // A host whose escapes decode to characters no host name has (a mangled
  // "{name} {at} {example.org}") is no working link, so it hides nothing.
  if (p.host_percent_encoded && std::all_of(p.host.begin(), p.host.end(), [](char c) {
        return is_alpha(c) || is_digit(c) || c == '.' || c == '-' ||
               static_cast<unsigned char>(c) >= 0x80;
      })) {
    st.obfuscated(p.host_range, 1.0);
  }
  if (p.port_number >= 0) {
    const std::string& scheme = p.scheme;
    bool standard = (scheme == "http" && p.port_number == 80) ||
                    (scheme == "https" && p.port_number == 443) ||
                    (scheme == "ftp" && p.port_number == 21);
    if (!standard && !p.port.empty()) st.out.push_back({kNonstandardPort, p.port, 1.0});
  }

  // Encoding in the path and query: escapes of characters that need none
  // (letters, digits, '.') only serve to hide words.
  std::size_t escapes = 0, needless = 0, total = 0;
  Range first_escape;
  for (Range r : {p.path, p.query}) {
    for (std::size_t i = r.start; i < r.end; ++i) {
      ++total;
      if (url[i] == '%' && i + 2 < r.end && hex_value(url[i + 1]) >= 0 &&
          hex_value(url[i + 2]) >= 0) {
        ++escapes;
        int v = hex_value(url[i + 1]) * 16 + hex_value(url[i + 2]);
        if ((v >= '0' && v <= '9') || (v >= 'A' && v <= 'Z') || (v >= 'a' && v <= 'z') ||
            v == '.') {
          if (needless == 0) first_escape = {i, i + 3};
          ++needless;
        }
      }
    }
  }
  if (needless >= 4 || (needless >= 2 && needless * 3 >= escapes && escapes * 4 >= total)) {
    Range r = first_escape;
    if (!r.empty()) r.end = first_escape.start < p.path.end ? p.path.end : p.query.end;
    st.obfuscated(r.empty() ? p.path : r, 0.8);
  }
}

void UrlChecker::check_host(State& st) const {
  const ParsedUrl& p = st.p;
  std::string_view host = st.host;
  if (st.ip) {
    bool local = host.rfind("10.", 0) == 0 || host.rfind("192.168.", 0) == 0 ||
                 host.rfind("127.", 0) == 0 || host == "[::1]";
    st.out.push_back({kIpAddressHost, p.host_range, local ? 0.5 : 1.0});
    if (p.ipv4_noncanonical) st.obfuscated(p.host_range, 1.0);
    return;
  }
  st.registrable = registrable_domain(host);
  st.icann = icann_suffix(host);
  st.labels = split_labels(host);
  if (st.labels.count == 0) return;
  st.tld = st.label(st.labels.count - 1);
  st.reg_off = st.registrable.empty() ? 0 : host.size() - st.registrable.size();
  for (std::size_t i = 0; i < st.labels.count; ++i) {
    if (st.labels.items[i].off == st.reg_off) st.reg_idx = i;
  }
  // Brands with a country-domain portfolio own "<name>.<cc>" broadly
  // (google.com.uy, google.tk): any two-letter country TLD qualifies.
  st.official = brands_->is_official(st.registrable, st.tld.size() == 2);

  if (p.host_written_unicode || host.find("xn--") != std::string_view::npos) {
    double s = idn_strength(spoof_, p.host_unicode, p.host_has_xn_label);
    if (s > 0 && !st.official) st.out.push_back({kPunycodeDomain, p.host_range, s});
  }
  // Shorteners: the host itself or its registrable domain.
  if (auto it = lists_.shorteners.find(host); it != lists_.shorteners.end()) {
    st.out.push_back({kUrlShortener, p.host_range, it->second});
  } else if (auto it2 = lists_.shorteners.find(st.registrable); it2 != lists_.shorteners.end()) {
    st.out.push_back({kUrlShortener, p.host_range, it2->second});
  }
  // Free hosting: a proper sub-domain of a listed parent (the hoster's own
  // site, "weebly.com" or "www.weebly.com", is not user content).
  for (std::size_t i = 0; i + 1 < st.labels.count; ++i) {
    std::string_view parent = host.substr(st.labels.items[i + 1].off);
    auto it = lists_.free_hosting.find(parent);
    if (it == lists_.free_hosting.end() && i + 2 < st.labels.count) {
      std::string wild(st.label(i + 1));  // "blogspot.*": any country suffix
      wild += ".*";
      it = lists_.free_hosting.find(wild);
    }
    if (it == lists_.free_hosting.end()) continue;
    if (host.substr(0, st.labels.items[i + 1].off - 1) != "www") {
      st.out.push_back({kFreeHosting, p.host_range, it->second});
      st.hosted = true;
    }
    break;
  }
  // Content published on IPFS, read through any gateway: by its content
  // identifier in the path ("ipfs.io/ipfs/bafy...", "<gateway>/ipns/k51...")
  // or in a sub-domain ("bafy....ipfs.<gateway>"). Anyone can publish there,
  // as on a free host.
  if (!st.hosted) {
    Range ipfs = ipfs_content(st.url, p, host, st.labels, st.hm);
    if (!ipfs.empty()) {
      st.out.push_back({kFreeHosting, ipfs, 1.0});
      st.hosted = true;
    }
  }
  // A hosting provider's automatic server name in the sub-domains. Click
  // tracking of the big newsletter service uses such names for every
  // customer ("u1234567.ct.sendgrid.net").
  if ((!st.official || st.hosted) && st.reg_idx > 0 && st.registrable != "sendgrid.net") {
    for (std::size_t i = 0; i < st.reg_idx; ++i) {
      double s = server_name_strength(st.label(i));
      if (s > 0) {
        const HostLabel& l = st.labels.items[i];
        st.out.push_back({kHostingServerName, st.hm.part(l.off, l.len), s});
        break;
      }
    }
  }
  // Risky TLD: full strength for names registered directly under the TLD,
  // half under a second-level registry suffix ("com.cn", "presse.ci").
  if (!st.official) {
    if (auto it = lists_.risky_tlds.find(st.tld); it != lists_.risky_tlds.end()) {
      const HostLabel& last = st.labels.items[st.labels.count - 1];
      double s = st.icann == st.tld ? it->second : it->second * 0.5;
      Range r = last.off > 0 ? st.hm.part(last.off - 1, last.len + 1) : st.hm.part(0, last.len);
      st.out.push_back({kRiskyTld, r, s});
    }
  }
  // Many sub-domains ("www" does not count).
  std::size_t sub_labels = st.registrable.empty() ? 0 : st.reg_idx;
  if (sub_labels > 0 && host.compare(0, 4, "www.") == 0) --sub_labels;
  if (sub_labels >= 3) {
    st.out.push_back({kManySubdomains, st.hm.part(0, st.sub_end()), sub_labels >= 5 ? 1.5 : 1.0});
  }
  if (host.size() > 80) st.obfuscated(p.host_range, 0.6);
}

void UrlChecker::keyword_hits(State& st, std::string_view text, std::size_t text_off, bool in_host,
                              std::vector<int>& ids, Range& first) const {
  compact(text, st.compacted, st.origin);
  st.hits.clear();
  keywords_.find_all(st.compacted, st.hits);
  select_hits(st.hits);
  for (const auto& h : st.hits) {
    const UrlKeyword& k = lists_.keywords[static_cast<std::size_t>(h.id)];
    if (k.host_only && !in_host) continue;
    if (std::find(ids.begin(), ids.end(), h.id) != ids.end()) continue;
    ids.push_back(h.id);
    if (k.login && !in_host) st.login_words = true;
    if (first.empty()) {
      std::size_t s = st.origin[h.pos];
      std::size_t e = st.origin[h.pos + h.len - 1] + 1;
      first = in_host ? st.hm.part(text_off + s, e - s) : Range{text_off + s, text_off + e};
    }
  }
}

double UrlChecker::keyword_weight(const std::vector<int>& ids) const {
  double w = 0;
  for (int id : ids) w += id < 0 ? 1.0 : lists_.keywords[static_cast<std::size_t>(id)].strength;
  return w;
}

void UrlChecker::check_host_names(State& st) const {
  std::string_view host = st.host;
  const HostMap& hm = st.hm;
  const HostLabel& rl = st.labels.items[st.reg_idx];
  std::string_view label = st.label(st.reg_idx);
  // The Unicode form of the same label, for IDNs.
  std::string_view uni_label = label;
  if (st.p.host_unicode != host) {
    HostLabels ul = split_labels(st.p.host_unicode);
    if (ul.count == st.labels.count) {
      uni_label = std::string_view(st.p.host_unicode)
                      .substr(ul.items[st.reg_idx].off, ul.items[st.reg_idx].len);
    }
  }

  // The registrable label: a look-alike of a brand, or the brand in it.
  LookalikeMatch& lm = st.registrable_lookalike;
  if (!st.official) lm = label_lookalike(label, uni_label);
  if (lm.kind != LookalikeKind::kNone) {
    // The brand part of the label when it is one, else the whole
    // registrable domain (always for IDNs: positions differ there).
    bool part = uni_label == label &&
                (lm.kind == LookalikeKind::kContainsBrand || lm.pos > 0 || lm.len < label.size());
    Range r = part ? hm.part(rl.off + lm.pos, lm.len) : hm.part(rl.off, host.size() - rl.off);
    double strength = 1.0;
    // Positions index the ASCII label only; an IDN match keeps strength 1.
    if (lm.kind == LookalikeKind::kContainsBrand && !lm.word && uni_label == label &&
        lm.pos + lm.len <= label.size()) {
      // "paypal-secure" (the brand as a word) is stronger than "9to5google"
      // (glued to other letters on one side), stronger than a brand inside
      // a word ("huaweicloud"); short names (<= 5 letters: "aeon", "orico")
      // glued to other letters are usually part of another word.
      auto letter = [](char c) { return c >= 'a' && c <= 'z'; };
      bool left = lm.pos == 0 || !letter(label[lm.pos - 1]);
      bool right = lm.pos + lm.len >= label.size() || !letter(label[lm.pos + lm.len]);
      if (left && right) {
        strength = 1.0;
      } else if (left || right) {
        strength = lm.len <= 5 ? 0.5 : 0.8;
      } else {
        strength = 0.5;
      }
    }
    st.out.push_back({kBrandLookalike, r, strength});
  }

  if (st.reg_idx > 0) check_subdomains(st);

  // Keywords in the registrable label. One keyword in a host name is common
  // on real sites ("security.org"), so each counts with its strength from
  // url_keywords.txt; in the registrable name they are rare on popular
  // sites (0.4 % of the popular hosts of the domains corpus have any).
  double sub_kw = keyword_weight(st.kw_host);
  std::vector<int> kw_reg;
  Range reg_kw_range;
  keyword_hits(st, label, rl.off, true, kw_reg, reg_kw_range);
  std::vector<int> reg_only;
  for (int id : kw_reg) {
    if (std::find(st.kw_host.begin(), st.kw_host.end(), id) == st.kw_host.end()) {
      st.kw_host.push_back(id);
      reg_only.push_back(id);
    }
  }
  double reg_kw = keyword_weight(reg_only);
  if (st.kw_range.empty()) st.kw_range = reg_kw_range;
  double c = reg_kw + sub_kw;
  double host_score = c <= 1.0 ? 0.9 * c : std::min(1.0, 0.9 + 0.1 * (c - 1.0));
  if (reg_kw == 0) host_score *= 0.5;
  // Words glued with hyphens into a name ("account-gb", "login-protect",
  // "aide-france-verification") are how phishing names are built; the
  // popular sites that carry such a word run it together ("nerdwallet",
  // "macupdate").
  if (reg_kw > 0 && label.find('-') != std::string_view::npos) {
    host_score = std::min(1.0, host_score * 1.25);
  }
  st.kw_strength += host_score;

  // Randomness of the registrable label and of long sub-domain labels.
  if (lm.kind == LookalikeKind::kNone) {
    double r = randomness(label);
    Range rr = hm.part(rl.off, rl.len);
    for (std::size_t i = 0; i < st.reg_idx; ++i) {
      const HostLabel& sl = st.labels.items[i];
      if (sl.len < 8) continue;
      double sr = randomness(st.label(i));
      if (sr > r) {
        r = sr;
        rr = hm.part(sl.off, sl.len);
      }
    }
    if (r >= 0.5) st.out.push_back({kRandomDomain, rr, r});
  }
}

void UrlChecker::check_subdomains(State& st) const {
  const HostMap& hm = st.hm;
  // The brand in a sub-domain label ...
  bool found = false;
  std::vector<BrandTable::Mention> m;
  for (std::size_t i = 0; i < st.reg_idx && !found; ++i) {
    const HostLabel& sl = st.labels.items[i];
    m.clear();
    brands_->find_mentions(st.label(i), true, m);
    for (const auto& mm : m) {
      if (brands_->is_official_for(mm.brand, st.registrable, false)) continue;
      st.out.push_back({kBrandInSubdomain, hm.part(sl.off + mm.pos, mm.len), 1.0});
      found = true;
      break;
    }
  }
  // ... or a look-alike of it.
  for (std::size_t i = 0; i < st.reg_idx && !found; ++i) {
    const HostLabel& sl = st.labels.items[i];
    std::string_view sub = st.label(i);
    if (sub.size() < 4) continue;
    LookalikeMatch sm = label_lookalike(sub, sub);
    if (sm.kind != LookalikeKind::kNone &&
        !brands_->is_official_for(sm.brand, st.registrable, false)) {
      Range r = sm.len > 0 && sm.len < sub.size() ? hm.part(sl.off + sm.pos, sm.len)
                                                  : hm.part(sl.off, sl.len);
      st.out.push_back({kBrandInSubdomain, r, 0.8});
      found = true;
    }
  }
  // TLD-like labels inside the sub-domains make a host read as another
  // site: "secure.paypal.com.example.top", "rakuten.co.jp.abc.cn",
  // "paypal.com-restore.example.uk"; and a fake "vvww".
  for (std::size_t i = 0; i < st.reg_idx; ++i) {
    std::string_view sub = st.label(i);
    std::string_view head = sub.substr(0, sub.find('-'));
    bool tld_like =
        i > 0 && (head == "com" || head == "net" || head == "org" || head == "co" || head == "gov");
    bool fake_www = sub == "vvww" || sub == "wvvw" || sub == "wwvv" || sub == "vvvvvv";
    if (tld_like || fake_www) {
      st.obfuscated(hm.part(0, st.sub_end()), 0.6);
      break;
    }
  }
  // Keywords in the sub-domains.
  if (st.sub_end() > 0)
    keyword_hits(st, st.host.substr(0, st.sub_end()), 0, true, st.kw_host, st.kw_range);
}

bool UrlChecker::glued_to_keyword(std::string_view seg, std::size_t pos, std::size_t len,
                                  bool glued_right) const {
  // The letters glued to the brand on one side: "paypal|login" is a brand
  // next to a keyword, "interac|tive" is just a longer word.
  std::size_t a, b;
  if (glued_right) {
    a = pos + len;
    b = a;
    while (b < seg.size() && is_alpha(seg[b])) ++b;
  } else {
    b = pos;
    a = b;
    while (a > 0 && is_alpha(seg[a - 1])) --a;
  }
  if (b - a < 3 || b - a > 64) return false;
  char buf[64];
  for (std::size_t i = a; i < b; ++i) buf[i - a] = ascii_lower(seg[i]);
  std::string_view rest(buf, b - a);
  std::vector<SubstringIndex::Hit> hits;
  keywords_.find_all(rest, hits);
  for (const auto& h : hits) {
    if (glued_right ? h.pos == 0 : h.pos + h.len == rest.size()) return true;
  }
  return false;
}

void UrlChecker::check_path(State& st) const {
  const ParsedUrl& p = st.p;
  std::string_view url = st.url;
  bool site_allows_mentions = false;
  if (!st.registrable.empty()) {
    site_allows_mentions = lists_.mention_sites.count(st.registrable) > 0;
    std::size_t dot = st.registrable.find('.');
    if (!site_allows_mentions && dot != std::string::npos) {
      site_allows_mentions = lists_.mention_sites.count(st.registrable.substr(0, dot) + ".*") > 0;
    }
  }
  // Segments of the path and query (split at '/', '&' and '='): keywords
  // and the first brand name.
  Range brand_range;
  std::size_t slug_words = 0;
  std::vector<BrandTable::Mention> pm;
  for (Range r : {p.path, p.query}) {
    std::size_t seg_start = r.start;
    for (std::size_t i = r.start; i <= r.end; ++i) {
      bool boundary = i == r.end || url[i] == '/' || url[i] == '&' || url[i] == '=';
      if (!boundary) continue;
      if (i > seg_start) {
        std::string_view seg = url.substr(seg_start, i - seg_start);
        Range first;
        keyword_hits(st, seg, seg_start, false, st.kw_path, first);
        if (st.kw_range.empty()) st.kw_range = first;
        if (!site_allows_mentions && brand_range.empty()) {
          pm.clear();
          brands_->find_mentions(seg, false, pm);
          for (const auto& mm : pm) {
            if (brands_->is_official_for(mm.brand, st.registrable, true)) continue;
            // Only whole words in paths ("/paypal/", "dhl-com"): a short
            // name inside a longer word is another word ("sitescooper" is
            // no "tesco"); long names may be glued on one side.
            bool left = mm.pos == 0 || !is_alpha(seg[mm.pos - 1]);
            bool right = mm.pos + mm.len >= seg.size() || !is_alpha(seg[mm.pos + mm.len]);
            if (!(left && right) && !(mm.len >= 8 && (left || right)) &&
                !(left != right && glued_to_keyword(seg, mm.pos, mm.len, left))) {
              continue;
            }
            // A link to the brand's own site inside a redirect parameter
            // ("?url=https://www.apple.com/uk/") is not an impersonation;
            // the official domain as a directory ("/paypal.com/webapps/")
            // is the classic one.
            if (r.start == p.query.start && r.end == p.query.end && looks_like_url(seg) &&
                brands_->mentions_official_domain(mm.brand, seg)) {
              continue;
            }
            // So is the brand's own host after a scheme inside the path, as
            // mailing services' click trackers write their targets
            // ("/click/123/*http://www.brand.ie/offers"): a redirect to
            // the real site.
            if (r.start == p.path.start && after_scheme(url.substr(r.start, seg_start - r.start)) &&
                brands_->is_official_for(mm.brand, registrable_domain(lower_ascii(seg)), true)) {
              continue;
            }
            brand_range = {seg_start + mm.pos, seg_start + mm.pos + mm.len};
            slug_words = 1;
            for (char c : seg) {
              if (c == '-' || c == '_' || c == '+' || c == ' ') ++slug_words;
            }
            break;
          }
        }
      }
      seg_start = i + 1;
    }
  }
  // A victim's address pre-filled into the query ("?email=jane@x.com"), as
  // phishing kits do to look personal, counts like one more keyword.
  if (!p.query.empty()) {
    std::string_view q = url.substr(p.query.start, p.query.size());
    std::size_t at = q.find('@');
    std::size_t at_len = 1;
    if (at == std::string_view::npos) {
      at = q.find("%40");
      at_len = 3;
    }
    if (at != std::string_view::npos) {
      std::size_t eq = q.rfind('=', at);
      std::size_t amp = q.rfind('&', at);
      std::size_t value_end = q.find('&', at);
      if (value_end == std::string_view::npos) value_end = q.size();
      bool in_value = eq != std::string_view::npos && (amp == std::string_view::npos || eq > amp);
      std::string_view domain = q.substr(at + at_len, value_end - at - at_len);
      if (in_value && eq + 1 < at && domain.find('.') != std::string_view::npos) {
        st.kw_path.push_back(-1);
        if (st.kw_range.empty()) st.kw_range = {p.query.start + eq + 1, p.query.start + value_end};
      }
    }
  }
  // Paths: /login and /account are everywhere; only a pile of such words
  // ("/verify/myaccount/signin/") says much ...
  double c = keyword_weight(st.kw_path);
  st.kw_strength += c <= 1.0 ? 0.25 * c : std::min(0.55, 0.25 + 0.15 * (c - 1.0));
  // ... or log-in words deep inside an unrelated directory tree, which is
  // how kits on hacked sites look ("/wp-includes/fonts/Login/myaccount/").
  if (st.kw_path.size() >= 2 &&
      std::count(url.begin() + static_cast<std::ptrdiff_t>(p.path.start),
                 url.begin() + static_cast<std::ptrdiff_t>(p.path.end), '/') >= 4) {
    st.kw_strength += 0.25;
  }
  st.mention_site = site_allows_mentions;
  st.brand_range = brand_range;
  if (!brand_range.empty()) {
    // A brand in a short path segment ("/paypal/", "/dhl-com/") or next to
    // phishing words; a brand in a long slug is usually an article.
    bool context = !st.kw_path.empty() || !st.kw_host.empty();
    st.out.push_back({kBrandInPath, brand_range, (slug_words <= 3 || context) ? 1.0 : 0.4});
  }
}

}  // namespace scamcheck::internal
