// One pass over an HTML part with Gumbo: the text a reader sees (with a
// byte-exact map back to the source), the links, forms and password fields,
// and the runs of text hidden from the reader. The checks in html.cc turn
// this into findings; the text pipeline runs over `visible.text`.
#ifndef SCAMCHECK_EMAIL_HTML_SCAN_H_
#define SCAMCHECK_EMAIL_HTML_SCAN_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "email/email_checks.h"

namespace scamcheck::internal {

// An <a> or <area> element with an href (<area> has no link text).
struct HtmlAnchor {
  std::size_t href_start = 0, href_end = 0;  // the href value in the source (no quotes)
  std::string href;                          // decoded as a browser would use it
  // Control characters (tab, newline, ...) inside the scheme, which
  // browsers drop: "java&#9;script:", "ht\ntp:".
  bool scheme_broken = false;
  // http(s), ftp, protocol-relative, "www." or script (javascript:, data:,
  // vbscript:) link; these are also in VisibleText::links. Not: mailto:,
  // tel:, cid:, fragments, relative paths.
  bool web = false;
  // The anchor's visible text: byte range in VisibleText::text (trimmed;
  // empty if the anchor shows no text, e.g. only an image).
  std::size_t text_start = 0, text_end = 0;
};

// A start tag as written in the source, e.g. <input type="password">.
struct HtmlTag {
  std::size_t start = 0, end = 0;
};

// A <form> and the fields that follow it in the document (a field belongs
// to the last form opened before it, as browsers associate fields of
// badly nested forms).
struct HtmlForm {
  std::size_t start = 0, end = 0;                // the <form ...> start tag
  std::size_t action_start = 0, action_end = 0;  // its action value (empty if none)
  int fields = 0;     // text-like inputs (text, email, tel, number, password, ...) and selects
  int passwords = 0;  // <input type=password>
  bool get = false;   // method="get": the data goes into a URL (search boxes)
};

// Why text is invisible to a reader.
enum class HiddenReason {
  kDisplayNone,  // display:none, the hidden attribute
  kVisibility,   // visibility:hidden
  kTransparent,  // opacity:0
  kCollapsed,    // max-height:0 / height:0 with overflow:hidden
  kOffscreen,    // text-indent / left <= -500px
  kTinyFont,     // font-size <= 1px
  kSameColor,    // text color equal to the background (or white on default white)
};

// Consecutive hidden text (no visible text in between).
struct HtmlHiddenBlock {
  HiddenReason reason = HiddenReason::kDisplayNone;  // of its longest text node
  std::size_t chars = 0;  // letters, digits and non-ASCII characters other than fillers
  // No visible text came before it (a newsletter's preview line sits there).
  bool before_visible = false;
  // Evidence: up to kHiddenEvidenceMax source bytes of its longest text node,
  // starting at the first non-space character, ending on a character boundary.
  std::size_t evidence_start = 0, evidence_end = 0;
};

inline constexpr std::size_t kHiddenEvidenceMax = 60;

// A first hidden run before any visible text and shorter than this (in
// characters as counted for HtmlHiddenBlock::chars) is a newsletter's
// preview line (preheader), normal in legitimate mail. Mail programs show
// it in the inbox list, so it is part of the visible text (followed by a
// line break), and it is not hidden text.
inline constexpr std::size_t kPreheaderMaxChars = 200;

struct HtmlScan {
  VisibleText visible;  // text (preview line included), per-byte map, web/script links
  std::vector<HtmlAnchor> anchors;
  std::vector<HtmlForm> forms;           // <form> elements written in the source
  std::vector<HtmlTag> password_inputs;  // <input type=password>, inside forms or not
  std::vector<HtmlHiddenBlock> hidden;
};

// Parses `html` (valid UTF-8 expected; other bytes are tolerated) and fills
// `out` (cleared first). Every range is a non-empty slice of `html`.
// Thread-safe (no shared state). Gumbo parses a copy without the
// attributes the scan never reads (email/html_compact.h), which gives the
// same scan faster; `compact` false parses `html` as it is (for tests).
void scan_html(std::string_view html, HtmlScan& out, bool compact = true);

// White space, no-break space, zero-width characters, soft hyphens and the
// other invisible fillers newsletters pad their preview line with: never
// counted as hidden text.
bool is_filler_codepoint(char32_t cp);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_HTML_SCAN_H_
