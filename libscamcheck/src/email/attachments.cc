#include "email/attachments.h"

#include <re2/re2.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "email/html_scan.h"
#include "url/url_lists.h"
#include "util/ascii.h"
#include "util/utf8.h"

namespace scamcheck::internal {
namespace {

using namespace attachment_keys;  // NOLINT: the key names read better unqualified

// Length of a blank (space-like) character at `s[i]`, 0 if none: ASCII
// space and tab, no-break space, the Unicode spaces U+2000..U+200B, U+3000.
std::size_t blank_at(std::string_view s, std::size_t i) {
  const auto [cp, len] = decode_utf8(s, i);
  const bool blank =
      cp == ' ' || cp == '\t' || cp == 0xA0 || (cp >= 0x2000 && cp <= 0x200B) || cp == 0x3000;
  return blank ? len : 0;
}

// A bidi control (U+200E/F, U+202A..U+202E, U+2066..U+2069, U+061C) at `i`.
bool bidi_at(std::string_view s, std::size_t i) {
  const char32_t cp = decode_utf8(s, i).cp;
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

bool valid_extension(std::string_view ext) {
  if (ext.empty() || ext.size() > 24) return false;
  for (char c : ext) {
    if (!is_alpha(c) && !is_digit(c) && c != '-' && c != '_') return false;
  }
  return true;
}

enum class Magic { kNone, kExecutable, kZip, kOtherArchive };

Magic magic_of(std::string_view head) {
  if (head.size() >= 2 && head[0] == 'M' && head[1] == 'Z') {
    if (head.size() < 0x40) return Magic::kNone;  // smaller than any DOS header
    auto b = [&](std::size_t k) {
      return static_cast<std::uint32_t>(static_cast<unsigned char>(head[k]));
    };
    std::uint32_t pe = b(0x3c) | (b(0x3d) << 8) | (b(0x3e) << 16) | (b(0x3f) << 24);
    if (pe + 4 <= head.size()) {
      return head.compare(pe, 4, std::string_view("PE\0\0", 4)) == 0 ? Magic::kExecutable
                                                                     : Magic::kNone;
    }
    return pe >= 0x40 && pe < 0x1000 ? Magic::kExecutable : Magic::kNone;
  }
  if (head.size() >= 4 && head.compare(0, 4, std::string_view("PK\x03\x04", 4)) == 0) {
    return Magic::kZip;
  }
  if (head.rfind("Rar!\x1A\x07", 0) == 0 || head.rfind("7z\xBC\xAF\x27\x1C", 0) == 0 ||
      (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1F &&
       static_cast<unsigned char>(head[1]) == 0x8B)) {
    return Magic::kOtherArchive;
  }
  return Magic::kNone;
}

// The names of the files in a ZIP archive whose local headers lie within
// `head` (the first bytes of the attachment): usually the first one, which
// in malware archives is the only one.
std::vector<std::string_view> zip_entry_names(std::string_view head) {
  std::vector<std::string_view> names;
  auto u16 = [&](std::size_t k) {
    return static_cast<std::size_t>(static_cast<unsigned char>(head[k])) |
           (static_cast<std::size_t>(static_cast<unsigned char>(head[k + 1])) << 8);
  };
  auto u32 = [&](std::size_t k) { return u16(k) | (u16(k + 2) << 16); };
  std::size_t pos = 0;
  while (pos + 30 <= head.size() && names.size() < 16 &&
         head.compare(pos, 4, std::string_view("PK\x03\x04", 4)) == 0) {
    std::size_t flags = u16(pos + 6);
    std::size_t csize = u32(pos + 18);
    std::size_t name_len = u16(pos + 26), extra_len = u16(pos + 28);
    if (pos + 30 + name_len > head.size()) break;
    names.push_back(head.substr(pos + 30, name_len));
    if ((flags & 0x08) != 0) break;  // sizes follow the data: the next header cannot be found
    pos += 30 + name_len + extra_len + csize;
  }
  return names;
}

// A web page (or SVG) attachment that asks for input or sends the reader
// elsewhere: a form, a password field, a meta refresh or a script that
// navigates or decodes hidden content. Returns the strength, 0 if harmless.
double web_page_danger(std::string_view content) {
  if (content.empty()) return 0;
  HtmlScan scan;
  scan_html(content, scan);
  if (!scan.password_inputs.empty()) return 1.0;
  if (!scan.forms.empty()) return 1.0;
  if (contains_ci(content, "http-equiv=\"refresh\"") ||
      contains_ci(content, "http-equiv=refresh") || contains_ci(content, "http-equiv='refresh'")) {
    return 1.0;
  }
  // Scripts (up to their end tag, or the end of the page).
  std::string lowered = lower_ascii(content);
  std::size_t at = 0;
  while ((at = lowered.find("<script", at)) != std::string::npos) {
    std::size_t end = lowered.find("</script", at);
    std::string_view script = std::string_view(lowered).substr(
        at, end == std::string::npos ? std::string::npos : end - at);
    for (std::string_view s :
         {"location", "window.open", "atob(", "unescape(", "eval(", "document.write",
          "fromcharcode", "fetch(", "xmlhttprequest", ".submit("}) {
      if (script.find(s) != std::string_view::npos) return 1.0;
    }
    if (end == std::string::npos) break;
    at = end;
  }
  return 0;
}

// An Internet shortcut (".url", ".website": an INI file) that only
// bookmarks a web page is as risky as a link: kWebBookmarkStrength. One that
// opens a file share, a local path or a program ("URL=file://10.0.0.1/s/a.exe",
// a UNC path, "search-ms:", a program on the web), or that takes its icon
// from a share (which leaks the reader's Windows credentials), is what
// malware waves send: 1.0. Content that cannot be read keeps the listed
// strength (returns -1).
constexpr double kWebBookmarkStrength = 0.3;

double shortcut_danger(std::string_view head, const AttachmentTypes& types) {
  std::string text = lower_ascii(head);
  if (text.find("[internetshortcut]") == std::string::npos) return -1;
  double danger = -1;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t eol = text.find('\n', at);
    std::string_view line =
        std::string_view(text).substr(at, eol == std::string::npos ? std::string::npos : eol - at);
    at = eol == std::string::npos ? text.size() : eol + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "iconfile" || key == "workingdirectory") {
      if (value.rfind("\\\\", 0) == 0 || value.rfind("file:", 0) == 0) return 1.0;
      continue;
    }
    if (key != "url") continue;
    bool web = value.rfind("http://", 0) == 0 || value.rfind("https://", 0) == 0;
    if (!web) return 1.0;
    std::string_view path = value.substr(value.find("//") + 2);
    path = path.substr(0, path.find_first_of("?#"));
    std::size_t slash = path.find('/');
    FileName target = split_file_name(slash == std::string_view::npos ? "" : path.substr(slash));
    bool program = types.dangerous.count(target.ext) > 0 || types.macro.count(target.ext) > 0;
    danger = program ? 1.0 : kWebBookmarkStrength;
  }
  return danger;
}

bool lure_in(std::string_view stem, const std::vector<std::string>& lures) {
  std::string s = lower_ascii(stem);
  for (const std::string& w : lures) {
    std::size_t at = 0;
    while ((at = s.find(w, at)) != std::string::npos) {
      bool start_ok = at == 0 || !is_alpha(s[at - 1]);
      std::size_t after = at + w.size();
      bool end_ok = after >= s.size() || !is_alpha(s[after]) ||
                    (s[after] == 's' && (after + 1 >= s.size() || !is_alpha(s[after + 1])));
      if (start_ok && (end_ok || w.size() >= 5)) return true;
      at += 1;
    }
  }
  return false;
}

class AttachmentCheckerImpl : public AttachmentChecker {
 public:
  explicit AttachmentCheckerImpl(AttachmentTypes types) : types_(std::move(types)) {}
  void check(const ParsedEmail& email, Findings& out) const override;

 private:
  // Checks one attachment; true if it is an archive.
  bool check_one(const EmailPart& p, Findings& out) const;

  AttachmentTypes types_;
};

void emit(Findings& out, std::string_view key, std::size_t s, std::size_t e,
          const std::string& location, double strength) {
  if (e <= s) return;
  Finding f = Finding::at(std::string(key), s, e, location);
  f.strength = strength;
  out.push_back(std::move(f));
}

double strength_in(const std::unordered_map<std::string, double>& m, const std::string& k) {
  auto it = m.find(k);
  return it == m.end() ? 0 : it->second;
}

bool AttachmentCheckerImpl::check_one(const EmailPart& p, Findings& out) const {
  const std::string& name = p.filename;
  Magic magic = magic_of(p.head);
  FileName fn = split_file_name(name);
  // A ZIP signature is expected for Office files, Java archives and the
  // like; an archive signature under another name is a disguised archive.
  bool zip_ext = types_.zipbased.count(fn.ext) > 0 || types_.dangerous.count(fn.ext) > 0 ||
                 types_.macro.count(fn.ext) > 0;
  bool archive = types_.archive.count(fn.ext) > 0 || (magic == Magic::kZip && !zip_ext) ||
                 magic == Magic::kOtherArchive;
  if (name.empty() || fn.end <= fn.base) return archive;
  const std::string& loc = p.location;

  // dangerous_attachment: the strongest reason.
  double danger =
      std::max(strength_in(types_.dangerous, fn.ext), strength_in(types_.macro, fn.ext));
  if (fn.ext == "url" || fn.ext == "website") {
    if (double d = shortcut_danger(p.head, types_); d >= 0) danger = d;
  }
  if (magic == Magic::kExecutable) danger = 1.0;
  if (magic == Magic::kZip) {
    // A program or script packed into a ZIP archive (past the mail scanner).
    for (std::string_view entry : zip_entry_names(p.head)) {
      FileName inner = split_file_name(entry);
      danger = std::max(
          {danger, strength_in(types_.dangerous, inner.ext), strength_in(types_.macro, inner.ext)});
    }
  }
  bool web = types_.html.count(fn.ext) > 0 || fn.ext == "svg" ||
             (fn.ext.empty() && p.content_type == "text/html");
  if (web && danger < 1.0) {
    std::string_view content = p.text.empty() ? std::string_view(p.head) : std::string_view(p.text);
    double d = web_page_danger(content);
    double listed = strength_in(types_.html, fn.ext);
    if (d > 0) danger = std::max(danger, d * (listed > 0 ? listed : 1.0));
  }
  if (danger > 0) emit(out, kDangerousAttachment, fn.base, fn.end, loc, std::min(danger, 1.0));

  // double_extension.
  bool risky_ext = types_.dangerous.count(fn.ext) > 0 || types_.macro.count(fn.ext) > 0 ||
                   types_.html.count(fn.ext) > 0;
  if (fn.bidi != std::string::npos) {
    emit(out, kDoubleExtension, fn.bidi, fn.end, loc, 1.0);
  } else if (fn.inner_dot != std::string::npos && types_.decoy.count(fn.inner) > 0 &&
             (risky_ext || types_.archive.count(fn.ext) > 0)) {
    emit(out, kDoubleExtension, fn.inner_dot, fn.end, loc, risky_ext ? 1.0 : 0.6);
  } else if (fn.spaces_before_ext >= 3 && risky_ext) {
    std::size_t s = fn.ext_dot;
    while (s > fn.base && (name[s - 1] == ' ' || name[s - 1] == '\t')) --s;
    emit(out, kDoubleExtension, s > fn.base ? s : fn.ext_dot, fn.end, loc, 1.0);
  } else if (fn.ext_dot != std::string::npos && types_.decoy.count(fn.ext) > 0 &&
             (magic == Magic::kExecutable || (magic == Magic::kZip && !zip_ext) ||
              magic == Magic::kOtherArchive)) {
    // Content that contradicts its harmless extension.
    emit(out, kDoubleExtension, fn.ext_dot, fn.end, loc, magic == Magic::kExecutable ? 1.0 : 0.8);
  }

  // archive_lure.
  if (archive) {
    std::size_t stem_end = fn.ext_dot == std::string::npos ? fn.end : fn.ext_dot;
    if (lure_in(std::string_view(name).substr(fn.base, stem_end - fn.base), types_.lures)) {
      emit(out, kArchiveLure, fn.base, fn.end, loc, 1.0);
    }
  }
  return archive;
}

void AttachmentCheckerImpl::check(const ParsedEmail& email, Findings& out) const {
  bool any_archive = false;
  for (const EmailPart& p : email.parts) {
    if (p.type != EmailPart::Type::kAttachment) continue;
    if (check_one(p, out)) any_archive = true;
  }
  if (!any_archive) return;
  for (const EmailPart& p : email.parts) {
    if (p.type == EmailPart::Type::kAttachment) continue;
    std::size_t s = 0, e = 0;
    if (find_archive_password(p.text, p.type == EmailPart::Type::kHtml, s, e)) {
      emit(out, kArchivePassword, s, e, p.location, 1.0);
    }
  }
}

// Words after "password ... is" that are not the password itself.
bool is_stop_word(std::string_view token) {
  static const char* const kStop[] = {
      "the",       "your",       "same",       "required",     "protected",
      "below",     "above",      "attached",   "sent",         "following",
      "provided",  "incorrect",  "wrong",      "expired",      "reset",
      "changed",   "separately", "enclosed",   "unknown",      "invalid",
      "needed",    "necessary",  "given",      "below:",       "case-sensitive",
      "sms",       "phone",      "email",      "e-mail",       "separat",
      "unten",     "oben",       "folgt",      "erforderlich", "geschützt",
      "gesendet",  "beigefügt",  "mitgeteilt", "abgelaufen",   "falsch",
      "ihr",       "ihre",       "dein",       "deine",        "das",
      "der",       "die",        "nicht",      "not",          "now",
      "also",      "still",      "then",       "this",         "that",
      "and",       "our",        "for",        "you",          "will",
      "was",       "has",        "must",       "should",       "can",
      "cannot",    "here",       "hier",       "too",          "very",
      "only",      "just",       "private",    "secret",       "strong",
      "weak",      "secure",     "safe",       "correct",      "valid",
      "available", "included",   "listed",     "shown",        "see",
      "siehe",     "folgende",   "follows",    "unchanged",    "updated",
  };
  std::string t = lower_ascii(token);
  for (const char* w : kStop) {
    if (t == w) return true;
  }
  return false;
}

RE2::Options regex_options() {
  RE2::Options o;
  o.set_case_sensitive(false);
  o.set_log_errors(false);
  return o;
}

}  // namespace

Result<AttachmentTypes> AttachmentTypes::load(const DataSource& data) {
  static constexpr std::string_view kPath = "lists/attachment_types.txt";
  Result<std::string> text = data.read(kPath);
  if (!text.ok()) return text.status();
  AttachmentTypes t;
  std::string problems;
  for (ListEntry& e : parse_weighted_list(*text, data.describe(kPath), problems)) {
    if (e.tags.empty()) {
      problems += data.describe(kPath) + ": \"" + e.entry + "\" has no tag; ";
      continue;
    }
    for (const std::string& tag : e.tags) {
      if (tag == "lure") {
        bool ok = e.entry.size() >= 2;
        for (char c : e.entry) ok = ok && (is_alpha(c) || is_digit(c));
        if (!ok) {
          problems += data.describe(kPath) + ": lure word \"" + e.entry +
                      "\" must be >= 2 letters or digits; ";
          continue;
        }
        t.lures.push_back(e.entry);
        continue;
      }
      std::unordered_map<std::string, double>* target = nullptr;
      if (tag == "dangerous") target = &t.dangerous;
      if (tag == "macro") target = &t.macro;
      if (tag == "html") target = &t.html;
      if (tag == "archive") target = &t.archive;
      if (tag == "decoy") target = &t.decoy;
      if (tag == "zipbased") target = &t.zipbased;
      if (target == nullptr) {
        problems +=
            data.describe(kPath) + ": unknown tag \"" + tag + "\" for \"" + e.entry + "\"; ";
        continue;
      }
      if (!valid_extension(e.entry)) {
        problems += data.describe(kPath) + ": bad extension \"" + e.entry + "\"; ";
        continue;
      }
      (*target)[e.entry] = std::min(e.strength, 1.0);
    }
  }
  if (t.dangerous.empty() || t.archive.empty() || t.decoy.empty() || t.lures.empty()) {
    problems += data.describe(kPath) + ": needs dangerous, archive, decoy and lure entries; ";
  }
  if (!problems.empty()) return Status::invalid_argument(problems);
  // Longer lure words first, so that the report of a match is stable.
  std::sort(t.lures.begin(), t.lures.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  return t;
}

FileName split_file_name(std::string_view name) {
  FileName f;
  std::size_t slash = name.find_last_of("/\\");
  f.base = slash == std::string_view::npos ? 0 : slash + 1;
  f.end = name.size();
  // Windows drops trailing spaces and dots.
  while (f.end > f.base &&
         (name[f.end - 1] == ' ' || name[f.end - 1] == '.' || name[f.end - 1] == '\t')) {
    --f.end;
  }
  for (std::size_t i = f.base; i < f.end; ++i) {
    if (bidi_at(name, i)) {
      f.bidi = i;
      break;
    }
  }
  std::string_view n = name.substr(0, f.end);
  std::size_t dot = n.rfind('.');
  if (dot == std::string_view::npos || dot < f.base) return f;
  std::string_view ext = n.substr(dot + 1);
  if (!valid_extension(ext)) return f;
  f.ext = lower_ascii(ext);
  f.ext_dot = dot;
  // Blanks right before the dot ("scan.jpg        .scr").
  std::size_t i = f.base, run = 0;
  while (i < dot) {
    std::size_t b = blank_at(n, i);
    if (b > 0) {
      ++run;
      i += b;
    } else {
      run = 0;
      ++i;
    }
  }
  f.spaces_before_ext = run;
  // The extension before it, blanks trimmed.
  std::size_t prev = dot > f.base ? n.rfind('.', dot - 1) : std::string_view::npos;
  if (prev != std::string_view::npos && prev >= f.base) {
    std::string_view inner = n.substr(prev + 1, dot - prev - 1);
    std::string trimmed;
    for (std::size_t j = 0; j < inner.size();) {
      std::size_t b = blank_at(inner, j);
      if (b > 0) {
        j += b;
        continue;
      }
      trimmed += ascii_lower(inner[j]);
      ++j;
    }
    if (valid_extension(trimmed)) {
      f.inner = trimmed;
      f.inner_dot = prev;
    }
  }
  return f;
}

bool find_archive_password(std::string_view text, bool html, std::size_t& start, std::size_t& end) {
  // The password word, up to 40 bytes of words ("for the attachment"), the
  // separator (':' '=' "is" "ist" "lautet"), white space, quotes and (in
  // HTML) tags or &nbsp;, then the password: 2..40 characters. RE2 runs in
  // linear time, so the bounded gaps cannot blow up.
  static const std::string& kWord = *new std::string(
      "\\b(?:password|passwort|passwd|pass|pwd|kennwort|wachtwoord|senha|parola|"
      "contrase(?:ñ|n)a|mot de passe|has(?:ł|l)o)\\b");
  static const std::string& kSeparator =
      *new std::string("(?:[:=]|\\bis\\b|\\bist\\b|\\blautet\\b|\\best\\b)");
  static const std::string& kToken = *new std::string("([^\\s\"'„“”‚‘’«»<>&]{2,40})");
  static const RE2& kText = *new RE2(
      kWord + "[^\\n:=<>.]{0,40}?" + kSeparator + "[ \\t]*[\"'„“‚‘«]?" + kToken, regex_options());
  static const RE2& kHtml =
      *new RE2(kWord + "(?:[^\\n:=<>.]|<[^>\\n]*>){0,60}?" + kSeparator +
                   "(?:\\s|&nbsp;|<[^>\\n]*>){0,6}(?:[\"'„“‚‘«]|&quot;)?" + kToken,
               regex_options());
  static const RE2& kContext = *new RE2(
      "(zip|rar|7z|7-zip|archiv|attach|anhang|angeh(?:ä|a)ngt|beigef(?:ü|u)gt|datei|"
      "file|dokument|document|(?:ö|o)ffnen|open|entpack|extract|unzip)",
      regex_options());
  if (!kText.ok() || !kHtml.ok() || !kContext.ok()) return false;  // cannot happen: fixed patterns
  const RE2& re = html ? kHtml : kText;
  re2::StringPiece input(text.data(), text.size());
  re2::StringPiece whole, token;
  std::size_t pos = 0;
  int guard = 0;
  while (pos < text.size() && guard++ < 50) {
    if (!re.Match(input, pos, text.size(), RE2::UNANCHORED, &whole, 1)) return false;
    re2::StringPiece groups[2];
    re.Match(input, static_cast<std::size_t>(whole.data() - text.data()), text.size(),
             RE2::ANCHOR_START, groups, 2);
    token = groups[1];
    std::size_t s = static_cast<std::size_t>(whole.data() - text.data());
    std::size_t e = static_cast<std::size_t>(token.data() - text.data()) + token.size();
    // Trailing sentence punctuation is not part of the password.
    while (e > s && (text[e - 1] == '.' || text[e - 1] == ',' || text[e - 1] == ';' ||
                     text[e - 1] == ')' || text[e - 1] == '!' || text[e - 1] == '?')) {
      --e;
    }
    if (html) {  // inside a tag (<input type="password" name="pw1">) it is markup
      std::size_t lt = text.rfind('<', s), gt = text.rfind('>', s);
      if (lt != std::string_view::npos && (gt == std::string_view::npos || gt < lt)) {
        pos = s + 1;
        continue;
      }
    }
    std::size_t ts = static_cast<std::size_t>(token.data() - text.data());
    std::string_view tok = e > ts ? text.substr(ts, e - ts) : std::string_view();
    bool digit = std::any_of(tok.begin(), tok.end(), [](char c) { return is_digit(c); });
    if (tok.size() >= 2 && (digit || (tok.size() >= 3 && !is_stop_word(tok)))) {
      std::size_t ws = s > 200 ? s - 200 : 0;
      std::size_t we = std::min(text.size(), e + 200);
      if (RE2::PartialMatch(re2::StringPiece(text.data() + ws, we - ws), kContext)) {
        start = s;
        end = e;
        return true;
      }
    }
    pos = s + 1;
  }
  return false;
}

Result<std::unique_ptr<AttachmentChecker>> AttachmentChecker::load(const DataSource& data) {
  Result<AttachmentTypes> types = AttachmentTypes::load(data);
  if (!types.ok()) return types.status();
  return std::unique_ptr<AttachmentChecker>(new AttachmentCheckerImpl(std::move(types.value())));
}

}  // namespace scamcheck::internal
