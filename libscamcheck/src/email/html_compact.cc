#include "email/html_compact.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>

#include "email/html_style.h"
#include "util/ascii.h"
#include "util/utf8.h"

namespace scamcheck::internal {
namespace {

constexpr std::size_t kNpos = std::string_view::npos;

// White space as the tokenizer sees it (a CR is read as a line feed).
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// `name` lower-cased into `buf` (at most 16 bytes), or empty if longer.
std::string_view lower_name(std::string_view name, char (&buf)[16]) {
  if (name.size() > sizeof buf) return {};
  for (std::size_t i = 0; i < name.size(); ++i) buf[i] = ascii_lower(name[i]);
  return {buf, name.size()};
}

enum class TagKind {
  kOther,
  // Layout elements: no attribute of theirs changes how the tree is built
  // (unlike formatting elements, <input>, <html>, <body>, <font>), and the
  // scan reads only some of them (is_read_attribute).
  kLayout,
  kRawText,  // the tokenizer reads text until the end tag
  // The tokenizer's state depends on more than this reading follows
  // (script data, foreign content, select and frameset modes, plain text,
  // a line break dropped after <listing>): nothing after them is compacted.
  kStop,
};

// A lower-case tag name's kind; called for every start tag of a part.
TagKind kind_of(std::string_view t) {
  switch (t.size()) {
    case 1:
      return t == "p" ? TagKind::kLayout : TagKind::kOther;
    case 2:
      return t == "td" || t == "tr" || t == "br" || t == "th" || t == "li" || t == "hr" ||
                     t == "ul" || t == "ol" || (t[0] == 'h' && t[1] >= '1' && t[1] <= '6')
                 ? TagKind::kLayout
                 : TagKind::kOther;
    case 3:
      if (t == "div" || t == "img" || t == "col") return TagKind::kLayout;
      if (t == "xmp") return TagKind::kRawText;
      return t == "svg" ? TagKind::kStop : TagKind::kOther;
    case 4:
      if (t == "span" || t == "meta" || t == "link") return TagKind::kLayout;
      return t == "math" ? TagKind::kStop : TagKind::kOther;
    case 5:
      if (t == "table" || t == "tbody" || t == "thead" || t == "tfoot") return TagKind::kLayout;
      return t == "style" || t == "title" ? TagKind::kRawText : TagKind::kOther;
    case 6:
      if (t == "center") return TagKind::kLayout;
      if (t == "iframe") return TagKind::kRawText;
      return t == "script" || t == "select" ? TagKind::kStop : TagKind::kOther;
    case 7:
      if (t == "noembed") return TagKind::kRawText;
      return t == "listing" ? TagKind::kStop : TagKind::kOther;
    case 8:
      if (t == "colgroup") return TagKind::kLayout;
      if (t == "textarea" || t == "noframes") return TagKind::kRawText;
      return t == "frameset" || t == "noscript" ? TagKind::kStop : TagKind::kOther;
    case 9:
      return t == "plaintext" ? TagKind::kStop : TagKind::kOther;
    case 10:
      return t == "blockquote" ? TagKind::kLayout : TagKind::kOther;
    default:
      return TagKind::kOther;
  }
}

// What the scan reads of a layout element (html_scan.cc: Scanner::enter;
// class and id only for a <style> with "@media", revealed_by_media_query).
bool is_read_attribute(std::string_view a, bool media) {
  switch (a.size()) {
    case 2:
      return media && a == "id";
    case 5:
      return a == "style" || (media && a == "class");
    case 6:
      return a == "hidden";
    case 7:
      return a == "bgcolor";
    case 10:
      return a == "background";
    default:
      return false;
  }
}

// Whether a <style> of `h` may hold "@media": `h` does, in any case, or it
// has foreign content (<svg>, <math>), whose style text decodes character
// references.
bool mentions_media(std::string_view h) {
  for (std::size_t at = h.find('@'); at != kNpos; at = h.find('@', at + 1)) {
    if (equals_ci(h.substr(at + 1, 5), "media")) return true;
  }
  for (std::size_t at = h.find('<'); at != kNpos; at = h.find('<', at + 1)) {
    const char c = ascii_lower(at + 1 < h.size() ? h[at + 1] : ' ');
    if ((c == 's' && equals_ci(h.substr(at + 2, 2), "vg")) ||
        (c == 'm' && equals_ci(h.substr(at + 2, 3), "ath"))) {
      return true;
    }
  }
  return false;
}

// Bytes [start, end) of the source that the copy leaves out or, for a run
// of text, replaces with CompactHtml::kRun.
struct Range {
  std::size_t start, end;
  bool run;
};

struct Attribute {
  std::size_t space_start;  // the white space before its name
  std::size_t name_start, name_end;
  std::size_t end;  // after its value (or its name, if it has none)
};

// Reads the attributes of a tag from `i` (just after its name) as the
// HTML tokenizer does, calling on_attribute(Attribute) for each. Returns
// the position after the tag's '>', or kNpos if the input ends first.
template <typename F>
std::size_t read_attributes(std::string_view h, std::size_t i, F&& on_attribute) {
  const std::size_t n = h.size();
  while (true) {
    const std::size_t space_start = i;
    while (i < n && is_space(h[i])) ++i;
    if (i >= n) return kNpos;
    if (h[i] == '>') return i + 1;
    if (h[i] == '/') {  // self-closing, or read again as before a name
      ++i;
      if (i < n && h[i] == '>') return i + 1;
      continue;
    }
    Attribute a{space_start, i, 0, 0};
    ++i;  // the first character belongs to the name, whatever it is
    while (i < n && !is_space(h[i]) && h[i] != '/' && h[i] != '>' && h[i] != '=') ++i;
    a.name_end = a.end = i;
    std::size_t j = i;
    while (j < n && is_space(h[j])) ++j;
    if (j >= n) return kNpos;
    if (h[j] == '=') {
      ++j;
      while (j < n && is_space(h[j])) ++j;
      if (j >= n) return kNpos;
      if (h[j] == '"' || h[j] == '\'') {
        const std::size_t close = h.find(h[j], j + 1);
        if (close == kNpos) return kNpos;
        a.end = close + 1;
      } else if (h[j] == '>') {
        a.end = j;  // no value: the tag ends here
      } else {
        while (j < n && !is_space(h[j]) && h[j] != '>') ++j;
        if (j >= n) return kNpos;
        a.end = j;
      }
      i = a.end;
    }
    on_attribute(a);
  }
}

// The length of the character reference at h[at] if it is one that stands
// for a quote or an ampersand (never for a ';' or a ':'), else 0.
std::size_t quote_reference(std::string_view h, std::size_t at) {
  for (std::string_view r : {"&quot;", "&amp;", "&apos;", "&#34;", "&#39;"}) {
    if (h.compare(at, r.size(), r) == 0) return r.size();
  }
  return 0;
}

// The declarations of a quoted style value that the scan does not read
// (is_read_style_declaration), each with its ';', appended to `out`.
// True when that is all of them (the value reads as no style at all).
// Nothing is appended (false) for a value with an angle bracket or a
// character reference other than quote_reference() (it might stand for a
// ';' or a ':').
bool unread_declarations(std::string_view h, const Attribute& a, std::vector<Range>& out) {
  std::size_t q = a.name_end;
  while (q < a.end && is_space(h[q])) ++q;
  if (q >= a.end || h[q] != '=') return false;
  ++q;
  while (q < a.end && is_space(h[q])) ++q;
  if (q + 1 >= a.end || (h[q] != '"' && h[q] != '\'') || h[a.end - 1] != h[q]) return false;
  const std::size_t value_end = a.end - 1;
  for (std::size_t k = q + 1; k < value_end; ++k) {
    if (h[k] == '<' || h[k] == '>') return false;
    if (h[k] == '&') {
      const std::size_t len = quote_reference(h, k);
      if (len == 0 || k + len > value_end) return false;
      k += len - 1;
    }
  }
  bool all = true;
  for (std::size_t p = q + 1; p < value_end;) {
    // The next ';' that does not end a reference.
    std::size_t semi = p;
    while (semi < value_end && h[semi] != ';') {
      semi += h[semi] == '&' ? quote_reference(h, semi) : 1;
    }
    const std::size_t next = semi < value_end ? semi + 1 : value_end;
    if (is_read_style_declaration(h.substr(p, semi - p))) {
      all = false;
    } else {
      out.push_back({p, next, false});
    }
    p = next;
  }
  return all;
}

// What the scan does not read of the raw text [from, to) of a `name`
// element, appended to `out`: all of a <title>, <iframe> or <noframes>
// (never shown); of a <style>, when the part has no "@media" (then only
// whether some style sheet mentions "background" counts), all but the
// first "background".
void unread_raw_text(std::string_view h, std::size_t from, std::size_t to, std::string_view name,
                     bool media, std::vector<Range>& out) {
  if (to <= from) return;
  if (name == "title" || name == "iframe" || name == "noframes") {
    out.push_back({from, to, false});
    return;
  }
  if (name != "style" || media) return;
  constexpr std::string_view kBackground = "background";
  std::size_t at = from;
  while (at + kBackground.size() <= to &&
         !equals_ci(h.substr(at, kBackground.size()), kBackground)) {
    ++at;
  }
  if (at + kBackground.size() > to) {
    out.push_back({from, to, false});
    return;
  }
  if (at > from) out.push_back({from, at, false});
  if (at + kBackground.size() < to) out.push_back({at + kBackground.size(), to, false});
}

// The position of the end tag closing raw text or RCDATA opened by
// `lower` ("</style" followed by white space, '/' or '>'), or kNpos.
std::size_t find_end_tag(std::string_view h, std::size_t from, std::string_view lower) {
  while ((from = h.find("</", from)) != kNpos) {
    const std::size_t after = from + 2 + lower.size();
    if (after < h.size() && equals_ci(h.substr(from + 2, lower.size()), lower) &&
        (is_space(h[after]) || h[after] == '/' || h[after] == '>')) {
      return from;
    }
    from += 2;
  }
  return kNpos;
}

// The end of a comment starting at `i` ("<!--"), or kNpos.
std::size_t comment_end(std::string_view h, std::size_t i) {
  std::size_t b = i + 4;
  if (b < h.size() && h[b] == '>') return b + 1;                         // <!-->
  if (b + 1 < h.size() && h[b] == '-' && h[b + 1] == '>') return b + 2;  // <!--->
  while ((b = h.find("--", b)) != kNpos) {
    if (b + 2 < h.size() && h[b + 2] == '>') return b + 3;                     // -->
    if (b + 3 < h.size() && h[b + 2] == '!' && h[b + 3] == '>') return b + 4;  // --!>
    ++b;
  }
  return kNpos;
}

// How far the scan looks past a named character reference to tell where it
// ends (html_scan.cc, align_text: 24 bytes), with room to spare.
constexpr std::size_t kReferenceLookahead = 32;

// A byte a run of plain text (Range::run) may hold: printable ASCII but
// '&' and '<', and white space but a form feed (the scan reads any of it
// as one space; the tokenizer makes a line feed of a carriage return).
constexpr bool is_run_byte(char c) {
  return (c >= ' ' && c <= '~' && c != '&' && c != '<') || c == '\t' || c == '\n' || c == '\r';
}

// is_run_byte() by table.
bool is_run_ascii(char c) {
  static constexpr auto kRun = [] {
    std::array<bool, 256> t{};
    for (int b = 0; b < 0x80; ++b) t[b] = is_run_byte(static_cast<char>(b));
    return t;
  }();
  return kRun[static_cast<unsigned char>(c)];
}

// Bytes of the character at h[pos] (valid UTF-8) if a run of plain text
// may hold it, else 0: printable ASCII as is_run_byte, and other
// characters but those Gumbo replaces with U+FFFD (C1 controls,
// noncharacters), a byte order mark and U+FFFD itself.
std::size_t run_char(std::string_view h, std::size_t pos) {
  if (static_cast<unsigned char>(h[pos]) < 0x80) return is_run_byte(h[pos]) ? 1 : 0;
  const Utf8Char c = decode_utf8(h, pos);
  if (c.cp < 0xA0 || (c.cp >= 0xFDD0 && c.cp <= 0xFDEF) || (c.cp & 0xFFFE) == 0xFFFE ||
      c.cp == 0xFEFF || c.cp == 0xFFFD) {
    return 0;
  }
  return c.len;
}

// Shortest run of plain text worth a placeholder.
constexpr std::size_t kMinRun = 8;

// Where a run may start after a '&' at `amp`: past the letters and digits
// of a reference's name and what the scan compares after it to find where
// the reference ends (kReferenceLookahead).
std::size_t run_start_after(std::string_view h, std::size_t amp) {
  std::size_t end = amp + 1;
  while (end < h.size() && is_alnum(h[end])) ++end;
  return end + 1 + kReferenceLookahead;
}

// How far before a text a '&' is looked for (run_start_after).
constexpr std::size_t kReferenceLookbehind = 2 * kReferenceLookahead;

// The last '&' of a text before a position, for positions that never
// decrease: one search of the text for each '&'.
class Ampersands {
 public:
  explicit Ampersands(std::string_view h) : h_(h), next_(h.find('&')) {}
  std::size_t last_before(std::size_t pos) {
    while (next_ < pos) {
      last_ = next_;
      next_ = h_.find('&', next_ + 1);
    }
    return last_;
  }

 private:
  std::string_view h_;
  std::size_t last_ = kNpos, next_;
};

// What can be left out of text [from, to), appended to `out` in order:
// - runs of white space beyond their first character (the parser keeps
//   them all, the scan reads one); not a run shortly after a '&': what
//   follows a character reference stays as written;
// - with `runs`, each run of plain text (run_char, at least kMinRun
//   bytes, from the start of a word to the end of one, not shortly after a
//   '&') becomes one placeholder character (CompactHtml::kRun): the tokenizer
//   and the tree builder see one character, the scan reads the run's bytes
//   from the source. It starts and ends with a character other than white
//   space, so every insertion mode treats it as the run's first character
//   (white space and other characters are told apart in some), and no mode
//   changes inside a run of text.
void text_ranges(std::string_view h, std::size_t from, std::size_t to, bool runs, Ampersands& amps,
                 std::vector<Range>& out) {
  // The last '&' before here (every byte of the text is looked at but
  // those of runs of white space and of plain text, which hold none).
  std::size_t amp = amps.last_before(from);
  std::size_t run_from = from;  // where a run may start
  if (runs && amp != kNpos && from - amp <= kReferenceLookbehind) {
    run_from = std::max(run_from, run_start_after(h, amp));
  }
  for (std::size_t k = from; k < to; ++k) {
    if (h[k] > ' ') {  // most bytes: no white space
      if (h[k] == '&') {
        amp = k;
        if (runs) run_from = std::max(run_from, run_start_after(h, k));
        continue;
      }
      if (runs && k >= run_from && h[k] != '<' && h[k] <= '~' &&
          (k == from || is_space(h[k - 1]) || h[k - 1] == '>')) {
        std::size_t end = k + 1;  // after its last character other than white space
        for (std::size_t e = k + 1; e < to;) {
          if (is_run_ascii(h[e])) {  // most bytes
            if (h[e] > ' ') end = e + 1;
            ++e;
            continue;
          }
          const std::size_t len = run_char(h, e);
          if (len == 0) break;
          e += len;
          if (len > 1 || !is_space(h[e - 1])) end = e;
        }
        if (end - k >= kMinRun) {
          out.push_back({k, end, true});
          k = end - 1;
        }
      }
      continue;
    }
    if (k + 1 >= to || !is_space(h[k]) || !is_space(h[k + 1])) continue;
    std::size_t e = k + 2;
    while (e < to && is_space(h[e])) ++e;
    if (amp == kNpos || k - amp > kReferenceLookahead) out.push_back({k + 1, e, false});
    k = e - 1;
  }
}

// Whether a numeric character reference of `h` may stand for the
// placeholder ("&#57344;", "&#xE000"): then no run is replaced.
bool references_placeholder(std::string_view h) {
  constexpr std::uint32_t kPlaceholder = 0xE000;
  for (std::size_t at = h.find("&#"); at != kNpos; at = h.find("&#", at + 2)) {
    std::size_t d = at + 2;
    const bool hex = d < h.size() && (h[d] == 'x' || h[d] == 'X');
    if (hex) ++d;
    std::uint32_t value = 0;
    for (; d < h.size(); ++d) {
      const int digit = hex ? hex_value(h[d]) : (h[d] >= '0' && h[d] <= '9' ? h[d] - '0' : -1);
      if (digit < 0) break;
      value = value * (hex ? 16 : 10) + static_cast<std::uint32_t>(digit);
      if (value > 0x10FFFF) break;  // no longer the placeholder, whatever follows
    }
    if (value == kPlaceholder) return true;
  }
  return false;
}

// The byte ranges of `h` that can be left out or stand for a run of
// text, in order.
std::vector<Range> removable(std::string_view h) {
  std::vector<Range> out;
  const std::size_t n = h.size();
  const bool media = mentions_media(h);
  const bool runs = h.find(CompactHtml::kRun) == kNpos && !references_placeholder(h);
  Ampersands amps(h);
  std::size_t i = 0;
  std::size_t text = 0;  // where the text before the next '<' starts
  while ((i = h.find('<', i)) != kNpos && i + 1 < n) {
    const char c = h[i + 1];
    if (c == '!' || c == '?' || c == '/' || is_alpha(c)) text_ranges(h, text, i, runs, amps, out);
    if (c == '!' && h.compare(i + 2, 2, "--") == 0) {
      // A comment's text is not read (and a comment ends the text node
      // before it): "<!---->" is left of it.
      const std::size_t e = comment_end(h, i);
      if (e != kNpos) {
        const std::size_t body_end = e - (h[e - 2] == '!' ? 4 : 3);
        if (body_end > i + 4) out.push_back({i + 4, body_end, false});
      }
      i = e;
    } else if (c == '!' || c == '?') {  // doctype or bogus comment
      i = h.find('>', i + 2);
      if (i != kNpos) ++i;
    } else if (c == '/') {
      if (i + 2 < n && is_alpha(h[i + 2])) {
        std::size_t e = i + 3;
        while (e < n && !is_space(h[e]) && h[e] != '/' && h[e] != '>') ++e;
        i = read_attributes(h, e, [](const Attribute&) {});
      } else if (i + 2 < n && h[i + 2] == '>') {
        i += 3;
      } else {
        i = h.find('>', i + 2);
        if (i != kNpos) ++i;
      }
    } else if (is_alpha(c)) {
      std::size_t e = i + 2;
      while (e < n && !is_space(h[e]) && h[e] != '/' && h[e] != '>') ++e;
      char buf[16];
      const std::string_view name = lower_name(h.substr(i + 1, e - i - 1), buf);
      const TagKind kind = kind_of(name);
      const bool layout = kind == TagKind::kLayout;
      // <a> is a formatting element, but its attributes never change the
      // tree either: a new <a> first closes any open one, so no three
      // alike are ever open together (the "Noah's Ark" rule, which
      // compares attributes), and its clones only copy them. The scan
      // reads its href besides.
      const bool anchor = name == "a";
      const std::size_t first = out.size();
      i = read_attributes(h, e, [&](const Attribute& a) {
        if (!(layout || anchor) || a.space_start == a.name_start || h[a.space_start - 1] == '/')
          return;
        if (a.end < n && !is_space(h[a.end]) && h[a.end] != '/' && h[a.end] != '>') return;
        char abuf[16];
        const std::string_view an =
            lower_name(h.substr(a.name_start, a.name_end - a.name_start), abuf);
        const std::string_view all = h.substr(a.space_start, a.end - a.space_start);
        const bool whole = all.find_first_of("<>") == kNpos;  // can be left out as a whole
        if (!an.empty() && (is_read_attribute(an, media) || (anchor && an == "href"))) {
          // A style value: what the scan does not read of it, or all of it
          // when that is everything.
          if (an != "style") return;
          const std::size_t before = out.size();
          if (!unread_declarations(h, a, out) || !whole) return;
          out.resize(before);
        }
        if (!whole) return;
        out.push_back({a.space_start, a.end, false});
      });
      if (i == kNpos) {
        out.resize(first);  // an unfinished tag is dropped by the parser: left as it is
        return out;
      }
      if (kind == TagKind::kStop) return out;
      if (kind == TagKind::kRawText) {
        const std::size_t close = find_end_tag(h, i, name);
        if (close != kNpos) unread_raw_text(h, i, close, name, media, out);
        i = close;
      } else if (name == "pre" && i < n && (h[i] == '\n' || h[i] == '\r')) {
        // The line break the parser drops after <pre> stays as written.
        i += h.compare(i, 2, "\r\n") == 0 ? 2 : 1;
      }
    } else {
      ++i;  // a '<' of the text
      continue;
    }
    if (i == kNpos) return out;
    text = i;
  }
  text_ranges(h, text, n, runs, amps, out);
  return out;
}

// Elements whose end tag may be left out: they never nest by accident.
// Called for every tag of a part: one lower-casing and a binary search.
bool closes_itself(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "area",   "base",  "body",     "br",     "caption", "col",   "colgroup", "dd",     "dt",
      "embed",  "frame", "head",     "hr",     "html",    "img",   "input",    "keygen", "li",
      "link",   "meta",  "optgroup", "option", "p",       "param", "rb",       "rp",     "rt",
      "source", "tbody", "td",       "tfoot",  "th",      "thead", "tr",       "track",  "wbr"};
  constexpr std::size_t kLongest = 8;  // "colgroup", "optgroup"
  if (name.empty() || name.size() > kLongest) return false;
  char lower[kLongest];
  for (std::size_t i = 0; i < name.size(); ++i) lower[i] = ascii_lower(name[i]);
  return std::binary_search(std::begin(kNames), std::end(kNames),
                            std::string_view(lower, name.size()));
}

}  // namespace

std::string_view limit_nesting(std::string_view html, std::string& copy) {
  // Each open element needs a '<': fewer than the limit need no look.
  if (std::count(html.begin(), html.end(), '<') <= kMaxNesting) return html;
  int depth = 0;
  std::size_t i = 0;
  bool defusing = false;
  while ((i = html.find('<', i)) != std::string_view::npos) {
    if (html.compare(i, 4, "<!--") == 0) {
      std::size_t e = html.find("-->", i + 4);
      if (e == std::string_view::npos) break;
      i = e + 3;
      continue;
    }
    bool end_tag = i + 1 < html.size() && html[i + 1] == '/';
    std::size_t n = i + (end_tag ? 2 : 1);
    std::size_t name_end = n;
    while (name_end < html.size() && is_alnum(html[name_end])) ++name_end;
    if (name_end == n ||
        !((html[n] >= 'a' && html[n] <= 'z') || (html[n] >= 'A' && html[n] <= 'Z'))) {
      ++i;
      continue;
    }
    std::size_t close = html.find('>', name_end);
    if (close == std::string_view::npos) break;
    std::string_view name = html.substr(n, name_end - n);
    if (end_tag) {
      if (depth > 0 && !closes_itself(name)) --depth;
    } else if (!closes_itself(name) && html[close - 1] != '/') {
      if (++depth > kMaxNesting) {
        if (!defusing) {
          copy.assign(html);
          defusing = true;
        }
        for (std::size_t k = i; k <= close; ++k) copy[k] = ' ';
      }
    }
    i = close + 1;
  }
  return defusing ? std::string_view(copy) : html;
}

bool CompactHtml::build(std::string_view html) {
  text_.clear();
  cuts_.clear();
  runs_ = false;
  source_ = html;
  if (!is_valid_utf8(html)) return false;
  const auto ranges = removable(html);
  if (ranges.empty()) return false;
  text_.reserve(html.size());
  std::size_t from = 0, shift = 0;
  for (const Range& r : ranges) {
    text_.append(html.substr(from, r.start - from));
    if (r.run) {
      text_.append(kRun);
      runs_ = true;
    }
    shift += r.end - r.start - (r.run ? kRun.size() : 0);
    cuts_.push_back({text_.size(), shift});
    from = r.end;
  }
  text_.append(html.substr(from));
  return true;
}

std::size_t CompactHtml::to_source(std::size_t pos) const {
  auto it = std::upper_bound(cuts_.begin(), cuts_.end(), pos,
                             [](std::size_t p, const Cut& c) { return p < c.at; });
  return it == cuts_.begin() ? pos : pos + std::prev(it)->shift;
}

void CompactHtml::Cursor::seek(std::size_t pos) {
  const auto next = std::upper_bound(cuts_.begin(), cuts_.end(), pos,
                                     [](std::size_t p, const Cut& c) { return p < c.at; });
  low_ = next == cuts_.begin() ? 0 : std::prev(next)->at;
  shift_ = next == cuts_.begin() ? 0 : std::prev(next)->shift;
  high_ = next == cuts_.end() ? static_cast<std::size_t>(-1) : next->at;
}

}  // namespace scamcheck::internal
