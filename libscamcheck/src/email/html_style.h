// The little CSS an email's HTML needs for "can a reader see this text?":
// inline style declarations (display, visibility, font-size, opacity,
// max-height with overflow, colors) and HTML colors. Class-based styles in
// <style> blocks are not evaluated (see html_scan.cc for how they are
// treated conservatively).
#ifndef SCAMCHECK_EMAIL_HTML_STYLE_H_
#define SCAMCHECK_EMAIL_HTML_STYLE_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace scamcheck::internal {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
};

// Parses an HTML/CSS color: "#rgb", "#rrggbb", "rrggbb" (legacy attribute
// form), "rgb(r, g, b)" / "rgba(...)" (alpha ignored unless 0 -> nullopt),
// and the common named colors. Case-insensitive; nullopt for anything else
// ("transparent", "inherit", gradients, images).
std::optional<Rgb> parse_color(std::string_view value);

// True if two colors are indistinguishable to a reader (every channel
// within a small distance).
bool same_color(const Rgb& a, const Rgb& b);

// True for white and near-white colors (every channel >= 0xF0).
bool is_whitish(const Rgb& c);

// What one element's inline `style` attribute says. Fields are unset when
// the declaration is absent or unparsable.
struct InlineStyle {
  bool display_none = false;        // display: none
  bool visibility_hidden = false;   // visibility: hidden | collapse
  bool visibility_visible = false;  // visibility: visible (undoes an ancestor's hidden)
  bool transparent = false;         // opacity: 0 (or <= 0.05)
  bool collapsed = false;           // max-height/height: 0 together with overflow: hidden
  bool offscreen = false;           // text-indent or left/top <= -500px
  // Font size in CSS pixels when given in absolute units (px, pt, em/rem
  // relative to 16px, %); 0 for "0" in any unit.
  std::optional<double> font_size_px;
  std::optional<Rgb> color;
  std::optional<Rgb> background;  // background-color, or the color in `background`
  bool background_image = false;  // background(-image) with url(...) or a gradient
};

// Parses a style attribute value ("color:#fff; display:none !important").
// Never fails; unknown declarations are ignored.
InlineStyle parse_inline_style(std::string_view style);

// Whether parse_inline_style() reads a declaration (the text between two
// semicolons of a style value): one of the properties it knows. The
// others can be left out of a style value without changing what it
// parses to (email/html_compact.h).
bool is_read_style_declaration(std::string_view declaration);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_HTML_STYLE_H_
