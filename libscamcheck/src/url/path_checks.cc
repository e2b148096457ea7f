#include "url/path_checks.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>

#include "url/public_suffix.h"
#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

bool one_of_ci(std::string_view s, std::initializer_list<std::string_view> set) {
  for (std::string_view x : set) {
    if (equals_ci(s, x)) return true;
  }
  return false;
}

// The extension of a file name ("php" for "login.php"), "" if none.
std::string_view extension(std::string_view name) {
  std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  return name.substr(dot + 1);
}

// A page a server renders for a visitor (as opposed to a folder).
bool is_page(std::string_view name) {
  return one_of_ci(extension(name),
                   {"php", "php5", "phtml", "htm", "html", "shtml", "asp", "aspx", "jsp"});
}

// Up to 48 non-empty path segments; longer paths keep the first 47 and
// the last one (which says what the link opens).
struct Segments {
  std::array<Range, 48> items{};
  std::size_t count = 0;
  bool trailing_slash = false;  // the path ends in '/': the last one is a folder
};

Segments split_path(std::string_view url, Range path) {
  Segments s;
  std::size_t start = path.start;
  for (std::size_t i = path.start; i <= path.end; ++i) {
    if (i < path.end && url[i] != '/') continue;
    if (i > start) {
      if (s.count == s.items.size()) --s.count;  // replace the provisional last one
      s.items[s.count++] = {start, i};
    }
    start = i + 1;
  }
  s.trailing_slash = path.end > path.start && url[path.end - 1] == '/';
  return s;
}

struct Hit {
  Range range;
  double strength = 0;
  void offer(Range r, double s) {
    if (s > strength) {
      strength = s;
      range = r;
    }
  }
};

// hijacked_site_path: a folder of a content management system's own code,
// or a hidden folder, that still has something below it. Visitors are sent
// to pages and media, never into these folders; phishing kits uploaded into
// hacked sites live there ("/wp-includes/js/us/delta.com/index.php").
void hijacked_folder(std::string_view url, const Segments& s,
                     const std::vector<std::string>& asset_folders, Hit& hit) {
  auto seg = [&](std::size_t i) { return url.substr(s.items[i].start, s.items[i].size()); };
  for (std::size_t i = 0; i + 1 < s.count; ++i) {
    std::string_view name = seg(i);
    std::size_t below = s.count - 1 - i;  // segments after this one
    if (one_of_ci(name, {"wp-includes", "wp-content"})) {
      hit.offer(s.items[i], 1.0);
    } else if (equals_ci(name, "wp-admin")) {
      // The admin pages themselves ("/wp-admin/post.php?post=5",
      // "/wp-admin/network/") are links site owners get by e-mail.
      std::string_view next = seg(i + 1);
      bool standard = (below == 1 && (is_page(next) || one_of_ci(next, {"network", "user"}))) ||
                      (below == 2 && one_of_ci(next, {"network", "user"}));
      if (!standard) hit.offer(s.items[i], 1.0);
    } else if (equals_ci(name, "administrator")) {
      // Joomla's back end: its own pages are "/administrator/index.php".
      if (below >= 2) hit.offer(s.items[i], 1.0);
    } else if ((equals_ci(name, "components") && starts_with_ci(seg(i + 1), "com_")) ||
               (equals_ci(name, "modules") && starts_with_ci(seg(i + 1), "mod_"))) {
      if (below >= 2) hit.offer(s.items[i], 1.0);  // Joomla extension folders
    } else if (equals_ci(name, "sites") && one_of_ci(seg(i + 1), {"default", "all"}) &&
               below >= 2) {
      // Drupal's upload and extension folders ("/sites/default/files/",
      // "/sites/all/modules/"); documents there are excluded above.
      hit.offer(s.items[i], 1.0);
    } else if (equals_ci(name, ".well-known")) {
      // Standard uses have one name below (".../security.txt"), or a token
      // below "acme-challenge" (certificate validation).
      std::string_view next = seg(i + 1);
      bool standard =
          below == 1 ||
          (below == 2 && one_of_ci(next, {"acme-challenge", "pki-validation", "matrix"}));
      if (!standard || is_page(seg(s.count - 1))) hit.offer(s.items[i], 1.0);
    } else if (name.size() >= 2 && name[0] == '.' && name != ".." &&
               !one_of_ci(name, {".auth", ".netlify"})) {
      // A hidden folder (".hitaccess", ".well", ".../"): web servers hide
      // them from visitors; kits use them to stay out of sight.
      hit.offer(s.items[i], 1.0);
    } else if (std::any_of(asset_folders.begin(), asset_folders.end(),
                           [&](const std::string& f) { return equals_ci(name, f); })) {
      // Folders for a site's own style sheets, scripts and pictures: a page
      // or further folders below them are odd, but some sites keep pages
      // there, so this alone is weak.
      bool page_below =
          (below == 1 && !s.trailing_slash && is_page(seg(s.count - 1))) || below >= 2;
      if (page_below) hit.offer(s.items[i], 0.5);
    }
  }
}

// random_code_folder: a folder named by a hex hash with something below it
// ("/fbf4ee7801fb92dcbf45f99c290de21a/index2.php"). Kits copy themselves
// into a fresh folder per victim so that a reported address dies alone.
// A hash as the last part ("/unsubscribe/5f1e...") is an ordinary token.
void code_folder(std::string_view url, const Segments& s, Hit& hit) {
  for (std::size_t i = 0; i < s.count; ++i) {
    std::string_view name = url.substr(s.items[i].start, s.items[i].size());
    if (!is_hex_code(name)) continue;
    if (i + 1 < s.count) {
      hit.offer(s.items[i], 1.0);
      return;
    }
    if (s.trailing_slash) hit.offer(s.items[i], 0.4);  // "/<hash>/": the folder's index page
  }
}

// Country-code top-level domains that are also common file extensions
// ("README.md", "setup.py", "login.do", "messages.mo").
bool file_like_tld(std::string_view tld) {
  return one_of_ci(tld, {"py", "pl", "sh", "md", "rs", "do", "cc", "ps", "ai", "so",
                         "in", "am", "ac", "ml", "pm", "mk", "bz", "sc", "la", "mo"});
}

// The host name that segment `name` is, if it is one ("www.atbonline.com",
// "online.simplii.com", "rbsdigital.com"): labels of letters, digits and
// hyphens ending in a known top-level domain.
bool host_like(std::string_view name) {
  if (name.size() < 4 || name.size() > 253) return false;
  std::size_t labels = 0, start = 0;
  bool any_letter = false;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    if (i < name.size() && name[i] != '.') {
      char c = ascii_lower(name[i]);
      bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
      if (!ok) return false;
      if (c >= 'a' && c <= 'z') any_letter = true;
      continue;
    }
    if (i == start || name[start] == '-' || name[i - 1] == '-') return false;  // empty or "-x"
    ++labels;
    start = i + 1;
  }
  if (labels < 2 || !any_letter) return false;
  std::size_t dot = name.rfind('.');
  std::string tld(name.substr(dot + 1));
  for (char& c : tld) c = ascii_lower(c);
  if (tld.size() < 2 || !is_known_tld(tld)) return false;
  for (char c : tld) {
    if (c < 'a' || c > 'z') return false;
  }
  bool www = starts_with_ci(name, "www.") || starts_with_ci(name, "ww1.") ||
             starts_with_ci(name, "ww2.") || starts_with_ci(name, "ww3.") ||
             starts_with_ci(name, "www1.") || starts_with_ci(name, "www2.");
  if (www) return true;
  // Without "www." only the classic top-level domains and country codes:
  // the newer ones read like file types ("Numbers.java", "swflash.cab").
  if (tld.size() == 2) {
    if (file_like_tld(tld)) return false;
  } else if (!one_of_ci(tld, {"com", "net", "org", "edu", "gov", "mil", "int", "info", "biz"})) {
    return false;
  }
  // "index.com" is no more a host than "index.html" is.
  std::string_view first = name.substr(0, name.find('.'));
  return !one_of_ci(first,
                    {"index", "default", "main", "home", "login", "logon", "signin", "page"});
}

// domain_in_path: another site's host name as a folder or page name
// ("/directing/www.atbonline.com/ATB/login.html"): the reader sees a known
// address; the link goes to the site in front of it.
void domain_folder(const PathShapeInput& in, const Segments& s, Hit& hit) {
  std::string_view url = in.url;
  // "http://http://x.com/", "http://www/x.com/": a mistyped link, not a
  // disguise.
  if (in.registrable.empty() && in.p->host_kind == HostKind::kName) return;
  for (std::size_t i = 0; i < s.count; ++i) {
    std::string_view name = url.substr(s.items[i].start, s.items[i].size());
    // An address embedded after a scheme ("/jump/http://www.x.com") is a
    // redirect, and the evidence of something else.
    if (name.back() == ':') return;
    if (!host_like(name)) continue;
    if (!in.brand_range.empty() && in.brand_range.start < s.items[i].end &&
        s.items[i].start < in.brand_range.end) {
      continue;
    }
    // Drupal keeps each site's files under "/sites/<its host name>/".
    if (i > 0 && equals_ci(url.substr(s.items[i - 1].start, s.items[i - 1].size()), "sites"))
      continue;
    std::string lowered(name);
    for (char& c : lowered) c = ascii_lower(c);
    if (lowered == in.host) continue;
    std::string reg = registrable_domain(lowered);
    // The link's own site named again ("x.comhttp://www.x.com/...").
    if (reg.empty() || in.host.find(reg) != std::string_view::npos) continue;
    // A copy of the other site below its name ("/www.atbonline.com/ATB/
    // login.html") is how kits dress up; a bare name at the end or a
    // control-panel path ("/manage/example.com/dns") is weaker.
    const Range& last = s.items[s.count - 1];
    bool page_below =
        i + 1 < s.count && !s.trailing_slash && is_page(url.substr(last.start, last.size()));
    bool www = lowered.compare(0, 4, "www.") == 0;
    hit.offer(s.items[i], page_below ? 1.0 : (www && i + 1 < s.count) ? 0.8 : 0.6);
    return;
  }
}

}  // namespace

bool is_static_file(std::string_view name) {
  std::string_view ext = extension(name);
  if (ext.empty() || ext.size() > 5) return false;
  return one_of_ci(
      ext,
      {"jpg", "jpeg", "png",  "gif",   "svg", "ico",  "webp", "bmp", "tif",  "tiff", "css", "js",
       "mjs", "map",  "woff", "woff2", "ttf", "eot",  "otf",  "pdf", "doc",  "docx", "xls", "xlsx",
       "ppt", "pptx", "odt",  "ods",   "rtf", "zip",  "rar",  "7z",  "gz",   "tgz",  "mp3", "mp4",
       "m4a", "m4v",  "mov",  "avi",   "wmv", "webm", "ogg",  "wav", "flac", "xml",  "txt", "json",
       "csv", "rss",  "atom", "swf",   "flv", "apk",  "dmg",  "exe", "msi"});
}

bool is_hex_code(std::string_view seg) {
  if (seg.size() < 24 || seg.size() > 128) return false;
  int digits = 0, letters = 0;
  for (char c : seg) {
    char l = ascii_lower(c);
    if (l >= '0' && l <= '9') {
      ++digits;
    } else if (l >= 'a' && l <= 'f') {
      ++letters;
    } else {
      return false;
    }
  }
  return digits >= 4 && letters >= 4;
}

void check_path_shape(const PathShapeInput& in, std::vector<UrlSignal>& out) {
  const ParsedUrl& p = *in.p;
  if (p.path.size() < 2) return;
  Segments s = split_path(in.url, p.path);
  if (s.count == 0) return;
  if (!s.trailing_slash) {
    const Range& last = s.items[s.count - 1];
    if (is_static_file(in.url.substr(last.start, last.size()))) return;
  }
  Hit hijacked, code, domain;
  hijacked_folder(in.url, s, *in.asset_folders, hijacked);
  code_folder(in.url, s, code);
  if (!in.mention_site) domain_folder(in, s, domain);
  if (hijacked.strength > 0)
    out.push_back({url_keys::kHijackedSitePath, hijacked.range, hijacked.strength});
  if (code.strength > 0) out.push_back({url_keys::kRandomCodeFolder, code.range, code.strength});
  if (domain.strength > 0) out.push_back({url_keys::kDomainInPath, domain.range, domain.strength});
}

}  // namespace scamcheck::internal
