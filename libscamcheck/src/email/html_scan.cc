#include "email/html_scan.h"

#include <gumbo.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>

#include "email/gumbo_arena.h"
#include "email/html_compact.h"
#include "email/html_style.h"
#include "email/html_text_map.h"
#include "util/ascii.h"
#include "util/utf8.h"

namespace scamcheck::internal {
namespace {

using html_text::align_chars;
using html_text::is_ascii_space;
using html_text::kNone;
using html_text::TextBuilder;

bool is_ident(char c) { return is_alnum(c) || c == '-' || c == '_'; }

// The code point of `ch`, one character's bytes.
char32_t code_point(std::string_view ch) {
  return ch.empty() ? kReplacementChar : decode_utf8(ch, 0).cp;
}

// What an element passes on to its content.
struct Ctx {
  bool skip = false;  // not rendered at all (head, script, style, ...): not walked
  bool gone = false;  // hidden in a way no descendant can undo
  HiddenReason gone_reason = HiddenReason::kDisplayNone;
  bool invisible = false;  // visibility:hidden (a descendant may say visible)
  double font_px = 16;
  std::optional<Rgb> color;
  std::optional<Rgb> bg;
  bool bg_unknown = false;  // a background image: colors cannot be compared
};

bool is_block(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_P:
    case GUMBO_TAG_DIV:
    case GUMBO_TAG_BR:
    case GUMBO_TAG_TR:
    case GUMBO_TAG_LI:
    case GUMBO_TAG_H1:
    case GUMBO_TAG_H2:
    case GUMBO_TAG_H3:
    case GUMBO_TAG_H4:
    case GUMBO_TAG_H5:
    case GUMBO_TAG_H6:
    case GUMBO_TAG_TABLE:
    case GUMBO_TAG_UL:
    case GUMBO_TAG_OL:
    case GUMBO_TAG_DL:
    case GUMBO_TAG_DT:
    case GUMBO_TAG_DD:
    case GUMBO_TAG_BLOCKQUOTE:
    case GUMBO_TAG_PRE:
    case GUMBO_TAG_HR:
    case GUMBO_TAG_SECTION:
    case GUMBO_TAG_ARTICLE:
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_FOOTER:
    case GUMBO_TAG_NAV:
    case GUMBO_TAG_ASIDE:
    case GUMBO_TAG_MAIN:
    case GUMBO_TAG_CENTER:
    case GUMBO_TAG_FORM:
    case GUMBO_TAG_ADDRESS:
    case GUMBO_TAG_FIGURE:
    case GUMBO_TAG_FIGCAPTION:
    case GUMBO_TAG_FIELDSET:
    case GUMBO_TAG_LEGEND:
    case GUMBO_TAG_CAPTION:
    case GUMBO_TAG_BODY:
      return true;
    default:
      return false;
  }
}

bool is_skipped(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_HEAD:
    case GUMBO_TAG_TITLE:
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_NOFRAMES:
    case GUMBO_TAG_SELECT:
    case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_SVG:
    case GUMBO_TAG_MATH:
    case GUMBO_TAG_IFRAME:
      return true;
    default:
      return false;
  }
}

struct Span {
  std::size_t start = 0, end = 0;
};

class Scanner {
 public:
  // `html` is what Gumbo parsed: the source, or its compacted copy with
  // `compact` mapping positions back to the source (else null).
  Scanner(std::string_view html, const CompactHtml* compact, HtmlScan& out)
      : html_(html), compact_(compact), out_(out), text_(out.visible) {}

  void run(const GumboNode* root);

 private:
  // Position of a pointer into the source, or kNone if it points elsewhere.
  std::size_t offset_of(const char* p) const {
    if (p == nullptr || p < html_.data() || p > html_.data() + html_.size()) return kNone;
    return static_cast<std::size_t>(p - html_.data());
  }
  // The source position of a start (of a character or range) in html_, and
  // of an end (one past its last byte).
  std::size_t source_start(std::size_t pos) const {
    return compact_ != nullptr ? compact_->to_source(pos) : pos;
  }
  std::size_t source_end(std::size_t pos) const {
    return compact_ != nullptr && pos > 0 ? compact_->to_source(pos - 1) + 1 : pos;
  }
  // White space the copy left out right after a character ending at `pos`
  // (kNone: a character of a run of text, which leaves nothing out).
  std::size_t gap_after(std::size_t pos) const {
    return compact_ != nullptr && pos != kNone ? compact_->gap_before(pos) : 0;
  }
  // An attribute's value in the source, without quotes and outer spaces.
  std::optional<Span> value_span(const GumboAttribute* a) const;
  std::optional<Span> tag_span(const GumboElement& el) const;
  // align_chars() over a text node of html_ at `base`, with source
  // positions: emit(ch, start, end, copy_end), `copy_end` the character's
  // end in html_ (for gap_after(); kNone for a character of a run of text,
  // each of which is emitted with its own source position).
  template <typename Emit>
  void align_node(std::string_view orig, std::size_t base, std::string_view dec,
                  Emit&& emit) const {
    align_node(orig, base, dec, emit, [&](std::string_view run, std::size_t start) {
      for (std::size_t k = 0; k < run.size();) {
        const std::size_t n = html_text::char_len(run, k);
        emit(run.substr(k, n), start + k, start + k + n, kNone);
        k += n;
      }
    });
  }
  // The same, with each run of text that maps byte for byte to the source
  // (not in the fallback) as one emit_run(run, source_start).
  template <typename Emit, typename EmitRun>
  void align_node(std::string_view orig, std::size_t base, std::string_view dec, Emit&& emit,
                  EmitRun&& emit_run) const {
    if (compact_ == nullptr) {
      align_chars(
          orig, base, dec, false,
          [&](std::string_view ch, std::size_t s, std::size_t e) { emit(ch, s, e, e); },
          [](std::size_t, std::size_t, std::size_t) {});
      return;
    }
    CompactHtml::Cursor at(*compact_);
    const std::size_t node_end = base + orig.size();
    auto mapped = [&](std::string_view ch, std::size_t s, std::size_t e) {
      const std::size_t start = at.start(s);  // in increasing order: no search
      // The node's end (a range to it, or its last character) is its end in
      // the source, after any white space left out there.
      const std::size_t end = e == node_end ? at.start(e) : e == s + 1 ? start + 1 : at.end(e);
      emit(ch, start, end, e);
    };
    const std::string_view source = compact_->source();
    align_chars(orig, base, dec, compact_->has_runs(), mapped,
                [&](std::size_t pos, std::size_t s, std::size_t e) {
                  const std::size_t n = CompactHtml::kRun.size();
                  const std::size_t from = at.start(pos), to = at.start(pos + n);
                  if (s == pos && e == pos + n) {
                    emit_run(source.substr(from, to - from), from);
                    return;
                  }
                  for (std::size_t p = from; p < to;) {
                    const std::size_t n = html_text::char_len(source, p);
                    mapped(source.substr(p, n), s, e);
                    p += n;
                  }
                });
  }

  void collect_styles(const GumboNode* root);
  bool revealed_by_media_query(const GumboElement& el) const;
  Ctx enter(const GumboElement& el, const Ctx& parent) const;
  void on_element_open(const GumboNode* node);
  void text_node(const GumboNode* node, const Ctx& ctx);
  void close_hidden_block();

  std::string_view html_;
  const CompactHtml* compact_;
  HtmlScan& out_;
  TextBuilder text_;
  std::string media_css_;        // <style> text from the first "@media" on
  bool css_background_ = false;  // a <style> block sets backgrounds
  bool visible_seen_ = false;

  // The characters of a possible preview line, until the first visible text
  // decides (see kPreheaderMaxChars).
  struct Buffered {
    std::string bytes;
    std::size_t start, end;
  };
  std::vector<Buffered> preheader_;
  std::size_t preheader_chars_ = 0;  // characters of the source buffered (or left out)

  // The hidden block being collected.
  bool in_block_ = false;
  HtmlHiddenBlock block_;
  std::size_t block_best_ = 0;  // chars of its longest text node
};

std::optional<Span> Scanner::value_span(const GumboAttribute* a) const {
  std::size_t s = offset_of(a->original_value.data);
  if (s == kNone || a->original_value.length == 0) return std::nullopt;
  std::size_t e = s + a->original_value.length;
  if (e > html_.size()) return std::nullopt;
  char q = html_[s];
  if ((q == '"' || q == '\'') && e - s >= 2 && html_[e - 1] == q) {
    ++s;
    --e;
  } else if (q == '"' || q == '\'') {
    ++s;
  }
  while (s < e && is_ascii_space(html_[s])) ++s;
  while (e > s && is_ascii_space(html_[e - 1])) --e;
  if (s >= e) return std::nullopt;
  return Span{source_start(s), source_end(e)};
}

std::optional<Span> Scanner::tag_span(const GumboElement& el) const {
  std::size_t s = offset_of(el.original_tag.data);
  if (s == kNone || el.original_tag.length == 0) return std::nullopt;
  std::size_t e = s + el.original_tag.length;
  if (e > html_.size()) return std::nullopt;
  return Span{source_start(s), source_end(e)};
}

void Scanner::collect_styles(const GumboNode* root) {
  std::string css;
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_ELEMENT && n->type != GUMBO_NODE_TEMPLATE) continue;
    const GumboElement& el = n->v.element;
    if (el.tag == GUMBO_TAG_STYLE) {
      for (unsigned i = 0; i < el.children.length; ++i) {
        const auto* c = static_cast<const GumboNode*>(el.children.data[i]);
        if (c->type == GUMBO_NODE_TEXT || c->type == GUMBO_NODE_WHITESPACE) {
          css += c->v.text.text;
          css += '\n';
        }
      }
      continue;
    }
    for (unsigned i = el.children.length; i-- > 0;) {
      stack.push_back(static_cast<const GumboNode*>(el.children.data[i]));
    }
  }
  for (char& ch : css) ch = ascii_lower(ch);
  css_background_ = css.find("background") != std::string::npos;
  std::size_t media = css.find("@media");
  if (media != std::string::npos) media_css_ = css.substr(media);
}

// Responsive newsletters hide a mobile version inline (display:none) and
// show it from a media query in <style>: such content is not hidden text.
bool Scanner::revealed_by_media_query(const GumboElement& el) const {
  if (media_css_.empty()) return false;
  auto mentioned = [&](char sigil, std::string_view name) {
    std::string needle(1, sigil);
    for (char c : name) needle += ascii_lower(c);
    std::size_t at = 0;
    while ((at = media_css_.find(needle, at)) != std::string::npos) {
      std::size_t after = at + needle.size();
      if (after >= media_css_.size() || !is_ident(media_css_[after])) return true;
      at = after;
    }
    return false;
  };
  if (const GumboAttribute* cls = gumbo_get_attribute(&el.attributes, "class")) {
    std::string_view v = cls->value;
    std::size_t i = 0;
    while (i < v.size()) {
      while (i < v.size() && is_ascii_space(v[i])) ++i;
      std::size_t s = i;
      while (i < v.size() && !is_ascii_space(v[i])) ++i;
      if (i > s && mentioned('.', v.substr(s, i - s))) return true;
    }
  }
  if (const GumboAttribute* id = gumbo_get_attribute(&el.attributes, "id")) {
    if (*id->value != '\0' && mentioned('#', id->value)) return true;
  }
  return false;
}

Ctx Scanner::enter(const GumboElement& el, const Ctx& parent) const {
  Ctx ctx = parent;
  if (is_skipped(el.tag)) {
    ctx.skip = true;
    return ctx;
  }
  // Legacy presentation attributes first; inline style overrides them.
  if (const GumboAttribute* a = gumbo_get_attribute(&el.attributes, "bgcolor")) {
    if (auto c = parse_color(a->value)) {
      ctx.bg = c;
      ctx.bg_unknown = false;
    }
  }
  if (gumbo_get_attribute(&el.attributes, "background") != nullptr) ctx.bg_unknown = true;
  if (el.tag == GUMBO_TAG_FONT) {
    if (const GumboAttribute* a = gumbo_get_attribute(&el.attributes, "color")) {
      if (auto c = parse_color(a->value)) ctx.color = c;
    }
  }
  if (el.tag == GUMBO_TAG_BODY) {
    if (const GumboAttribute* a = gumbo_get_attribute(&el.attributes, "text")) {
      if (auto c = parse_color(a->value)) ctx.color = c;
    }
  }
  bool display_none = gumbo_get_attribute(&el.attributes, "hidden") != nullptr;
  if (const GumboAttribute* a = gumbo_get_attribute(&el.attributes, "style")) {
    InlineStyle st = parse_inline_style(a->value);
    display_none = display_none || st.display_none;
    if (st.visibility_hidden) ctx.invisible = true;
    if (st.visibility_visible) ctx.invisible = false;
    if (st.font_size_px) ctx.font_px = *st.font_size_px;
    if (st.color) ctx.color = st.color;
    if (st.background) {
      ctx.bg = st.background;
      ctx.bg_unknown = false;
    }
    if (st.background_image) ctx.bg_unknown = true;
    if (!ctx.gone) {
      if (st.transparent) {
        ctx.gone = true;
        ctx.gone_reason = HiddenReason::kTransparent;
      } else if (st.collapsed) {
        ctx.gone = true;
        ctx.gone_reason = HiddenReason::kCollapsed;
      } else if (st.offscreen) {
        ctx.gone = true;
        ctx.gone_reason = HiddenReason::kOffscreen;
      }
      if (ctx.gone && revealed_by_media_query(el)) ctx.gone = false;
    }
  }
  if (display_none && !ctx.gone && !revealed_by_media_query(el)) {
    ctx.gone = true;
    ctx.gone_reason = HiddenReason::kDisplayNone;
  }
  return ctx;
}

void Scanner::on_element_open(const GumboNode* node) {
  const GumboElement& el = node->v.element;
  if (el.tag == GUMBO_TAG_FORM) {
    if (auto span = tag_span(el)) {
      HtmlForm f;
      f.start = span->start;
      f.end = span->end;
      if (const GumboAttribute* a = gumbo_get_attribute(&el.attributes, "action")) {
        if (auto v = value_span(a)) {
          f.action_start = v->start;
          f.action_end = v->end;
        }
      }
      const GumboAttribute* method = gumbo_get_attribute(&el.attributes, "method");
      f.get = method == nullptr || !equals_ci(method->value, "post");  // GET is the default
      out_.forms.push_back(f);
    }
    return;
  }
  if (el.tag == GUMBO_TAG_SELECT) {
    if (!out_.forms.empty()) ++out_.forms.back().fields;
    return;
  }
  if (el.tag != GUMBO_TAG_INPUT) return;
  const GumboAttribute* type = gumbo_get_attribute(&el.attributes, "type");
  std::string_view t = type != nullptr ? std::string_view(type->value) : std::string_view();
  bool password = equals_ci(t, "password");
  if (password) {
    if (auto span = tag_span(el)) out_.password_inputs.push_back({span->start, span->end});
  }
  // Fields that take typed-in data; not buttons, check boxes, hidden
  // fields or search boxes.
  bool field = password || t.empty() || equals_ci(t, "text") || equals_ci(t, "email") ||
               equals_ci(t, "tel") || equals_ci(t, "number") || equals_ci(t, "date") ||
               equals_ci(t, "month");
  if (field && !out_.forms.empty()) {
    ++out_.forms.back().fields;
    if (password) ++out_.forms.back().passwords;
  }
}

void Scanner::close_hidden_block() {
  if (in_block_ && block_.chars > 0 && block_.evidence_end > block_.evidence_start) {
    out_.hidden.push_back(block_);
  }
  in_block_ = false;
  block_ = HtmlHiddenBlock{};
  block_best_ = 0;
}

void Scanner::text_node(const GumboNode* node, const Ctx& ctx) {
  const GumboText& t = node->v.text;
  std::size_t base = offset_of(t.original_text.data);
  if (base == kNone || t.text == nullptr) return;
  std::size_t len = std::min(t.original_text.length, html_.size() - base);
  std::string_view orig = html_.substr(base, len);
  std::string_view dec = t.text;
  if (dec.empty() || orig.empty()) return;

  std::optional<HiddenReason> hidden;
  if (ctx.gone) {
    hidden = ctx.gone_reason;
  } else if (ctx.invisible) {
    hidden = HiddenReason::kVisibility;
  } else if (ctx.font_px <= 1.0) {
    hidden = HiddenReason::kTinyFont;
  } else if (ctx.color && !ctx.bg_unknown) {
    if (ctx.bg ? same_color(*ctx.color, *ctx.bg) : (is_whitish(*ctx.color) && !css_background_)) {
      hidden = HiddenReason::kSameColor;
    }
  }

  if (!hidden) {
    if (!visible_seen_ && !preheader_.empty()) {
      bool shows = std::any_of(dec.begin(), dec.end(), [](char c) { return !is_ascii_space(c); });
      if (shows) {
        if (in_block_ && block_.chars < kPreheaderMaxChars && out_.hidden.empty()) {
          // Without the zero-width padding newsletters put after it.
          for (const Buffered& b : preheader_) {
            char32_t cp = code_point(b.bytes);
            if (b.bytes.size() == 1 && is_ascii_space(b.bytes[0])) {
              text_.put(b.bytes, b.start, b.end);
            } else if (cp == 0xA0) {
              text_.put(" ", b.start, b.end);
            } else if (!is_filler_codepoint(cp)) {
              text_.put(b.bytes, b.start, b.end);
            }
          }
          text_.block();
        }
        preheader_.clear();
        preheader_chars_ = 0;
      }
    }
    bool any = false;
    align_node(
        orig, base, dec,
        [&](std::string_view ch, std::size_t s, std::size_t e, std::size_t) {
          if (!(ch.size() == 1 && is_ascii_space(ch[0]))) any = true;
          text_.put(ch, s, e);
        },
        [&](std::string_view run, std::size_t start) {
          any = true;  // a run starts with a character other than white space
          text_.put_run(run, start);
        });
    if (any) {
      close_hidden_block();
      visible_seen_ = true;
    }
    return;
  }

  // Hidden: count real characters and keep the first kHiddenEvidenceMax
  // source bytes from the first one, cut after a whole character.
  std::size_t chars = 0;
  std::size_t ev_start = kNone, ev_end = kNone;
  bool ev_open = true;
  // Kept for the preview line: a few times its length, for the padding.
  bool buffer = !visible_seen_ && out_.hidden.empty();
  align_node(orig, base, dec,
             [&](std::string_view ch, std::size_t s, std::size_t e, std::size_t copy_end) {
               // Counted as in the source: the white space the copy left out too.
               if (buffer && preheader_chars_ < 4 * kPreheaderMaxChars) {
                 preheader_.push_back({std::string(ch), s, e});
                 preheader_chars_ += 1 + gap_after(copy_end);
               }
               bool space = ch.size() == 1 && is_ascii_space(ch[0]);
               bool filler = space || is_filler_codepoint(code_point(ch));
               // Letters, digits and other scripts count; ASCII punctuation ("- - - -"
               // separators) does not.
               if (!filler && (ch.size() > 1 || is_alnum(ch[0]))) ++chars;
               if (ev_start == kNone) {
                 if (!filler) {
                   ev_start = s;
                   ev_end = e;
                 }
                 return;
               }
               if (!ev_open) return;
               if (e - ev_start > kHiddenEvidenceMax) {
                 ev_open = false;
                 return;
               }
               if (!space && e > ev_end) ev_end = e;
             });
  if (chars == 0 || ev_start == kNone) return;
  if (!in_block_) {
    in_block_ = true;
    block_.before_visible = !visible_seen_;
  }
  block_.chars += chars;
  if (chars > block_best_) {
    block_best_ = chars;
    block_.reason = *hidden;
    block_.evidence_start = ev_start;
    block_.evidence_end = ev_end;
  }
}

void Scanner::run(const GumboNode* root) {
  collect_styles(root);
  struct Frame {
    const GumboNode* node;
    unsigned next = 0;
    Ctx ctx;
    std::size_t anchor = kNone;  // index in out_.anchors
    std::size_t text_start = 0;
  };
  std::vector<Frame> stack;
  stack.push_back({root, 0, Ctx{}, kNone, 0});
  while (!stack.empty()) {
    Frame& f = stack.back();
    const GumboElement& el = f.node->v.element;
    if (f.next < el.children.length) {
      const auto* child = static_cast<const GumboNode*>(el.children.data[f.next++]);
      switch (child->type) {
        case GUMBO_NODE_ELEMENT: {
          const GumboElement& cel = child->v.element;
          Ctx ctx = enter(cel, f.ctx);
          on_element_open(child);
          if (ctx.skip) break;  // nothing inside is rendered: not walked
          Frame nf{child, 0, ctx, kNone, 0};
          if (!ctx.gone) {
            if (is_block(cel.tag)) text_.block();
            if (cel.tag == GUMBO_TAG_TD || cel.tag == GUMBO_TAG_TH) text_.space();
          }
          if (cel.tag == GUMBO_TAG_A || cel.tag == GUMBO_TAG_AREA) {
            const GumboAttribute* href = gumbo_get_attribute(&cel.attributes, "href");
            std::optional<Span> span = href ? value_span(href) : std::nullopt;
            if (span) {
              HtmlAnchor a;
              a.href_start = span->start;
              a.href_end = span->end;
              // As a browser reads a URL: tabs and newlines removed, leading
              // and trailing controls and spaces trimmed.
              std::string_view raw = href->value;
              std::size_t lead = 0;
              while (lead < raw.size() && static_cast<unsigned char>(raw[lead]) <= 0x20) ++lead;
              std::size_t colon = raw.find(':', lead);
              if (colon != std::string_view::npos && colon - lead <= 16) {
                for (std::size_t k = lead; k < colon; ++k) {
                  if (static_cast<unsigned char>(raw[k]) < 0x20) a.scheme_broken = true;
                }
              }
              for (char c : raw) {
                if (c != '\t' && c != '\n' && c != '\r') a.href += c;
              }
              std::size_t s = 0, e = a.href.size();
              while (s < e && static_cast<unsigned char>(a.href[s]) <= 0x20) ++s;
              while (e > s && static_cast<unsigned char>(a.href[e - 1]) <= 0x20) --e;
              a.href = a.href.substr(s, e - s);
              if (!a.href.empty()) {
                if (cel.tag == GUMBO_TAG_A) {
                  nf.anchor = out_.anchors.size();
                  nf.text_start = out_.visible.text.size();
                }
                out_.anchors.push_back(std::move(a));
              }
            }
          }
          stack.push_back(nf);
          break;
        }
        case GUMBO_NODE_TEXT:
        case GUMBO_NODE_WHITESPACE:
          text_node(child, f.ctx);
          break;
        default:  // comments, CDATA, documents
          break;
      }
      continue;
    }
    // All children done: close the element.
    if (f.node != root && !f.ctx.gone) {
      GumboTag tag = el.tag;
      if (is_block(tag) && tag != GUMBO_TAG_BR) text_.block();
      if (tag == GUMBO_TAG_TD || tag == GUMBO_TAG_TH) text_.space();
    }
    if (f.anchor != kNone) {
      const std::string& text = out_.visible.text;
      std::size_t s = f.text_start, e = text.size();
      while (s < e && (text[s] == ' ' || text[s] == '\n')) ++s;
      while (e > s && (text[e - 1] == ' ' || text[e - 1] == '\n')) --e;
      out_.anchors[f.anchor].text_start = s;
      out_.anchors[f.anchor].text_end = e;
    }
    stack.pop_back();
  }
  close_hidden_block();
}

bool is_web_or_script_link(std::string_view href) {
  if (href.size() >= 2 && href[0] == '/' && href[1] == '/') return true;
  if (href.size() >= 4 && equals_ci(href.substr(0, 4), "www.")) return true;
  std::size_t colon = href.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  std::string_view scheme = href.substr(0, colon);
  for (char c : scheme) {
    if (!is_alnum(c) && c != '+' && c != '-' && c != '.') return false;
  }
  for (std::string_view s : {"http", "https", "ftp", "javascript", "vbscript", "data", "file"}) {
    if (equals_ci(scheme, s)) return true;
  }
  return false;
}

}  // namespace

bool is_filler_codepoint(char32_t cp) {
  switch (cp) {
    case 0x09:
    case 0x0A:
    case 0x0C:
    case 0x0D:
    case 0x20:
    case 0xA0:    // no-break space
    case 0xAD:    // soft hyphen
    case 0x34F:   // combining grapheme joiner (preview padding)
    case 0x2007:  // figure space
    case 0x2028:
    case 0x2029:
    case 0x3000:
    case 0xFEFF:
    case 0xFFFD:
      return true;
    default:
      return (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2060 && cp <= 0x2064) ||
             (cp >= 0x2000 && cp <= 0x200A);
  }
}

void scan_html(std::string_view html, HtmlScan& out, bool compact) {
  out = HtmlScan{};
  if (html.empty()) return;
  std::string defused;
  std::string_view source = limit_nesting(html, defused);
  // Gumbo reads the copy without the attributes the scan does not use.
  CompactHtml compacted;
  const bool use_copy = compact && compacted.build(source);
  if (use_copy) source = compacted.text();
  GumboArena arena;  // the output lives in it: no gumbo_destroy_output()
  GumboOptions options = arena.options(kGumboDefaultOptions);
  options.max_errors = 0;  // errors are not used; recording them costs time
  GumboOutput* parsed = gumbo_parse_with_options(&options, source.data(), source.size());
  if (parsed == nullptr) return;
  if (parsed->root != nullptr && parsed->root->type == GUMBO_NODE_ELEMENT) {
    Scanner scanner(source, use_copy ? &compacted : nullptr, out);
    scanner.run(parsed->root);
  }
  for (HtmlAnchor& a : out.anchors) {
    a.web = is_web_or_script_link(a.href);
    if (a.web) out.visible.links.push_back({a.href_start, a.href_end, a.href});
  }
}

}  // namespace scamcheck::internal
