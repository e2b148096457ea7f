#include "email/html_style.h"

#include <array>
#include <cstdlib>
#include <string>

#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

bool is_css_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

std::string_view trim_css(std::string_view s) {
  while (!s.empty() && is_css_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_css_space(s.back())) s.remove_suffix(1);
  return s;
}

std::optional<Rgb> parse_hex(std::string_view h) {
  for (char c : h) {
    if (hex_value(c) < 0) return std::nullopt;
  }
  auto byte = [&](std::size_t i) {
    return static_cast<std::uint8_t>(hex_value(h[i]) * 16 + hex_value(h[i + 1]));
  };
  if (h.size() == 6 || h.size() == 8) return Rgb{byte(0), byte(2), byte(4)};
  if (h.size() == 3 || h.size() == 4) {
    auto nib = [&](std::size_t i) { return static_cast<std::uint8_t>(hex_value(h[i]) * 17); };
    return Rgb{nib(0), nib(1), nib(2)};
  }
  return std::nullopt;
}

struct NamedColor {
  std::string_view name;
  Rgb rgb;
};

// The basic colors and the whites and near-whites that hidden-text tricks
// use; other named colors simply stay unknown (never "hidden").
constexpr std::array<NamedColor, 30> kNamedColors = {{
    {"white", {255, 255, 255}},
    {"black", {0, 0, 0}},
    {"red", {255, 0, 0}},
    {"green", {0, 128, 0}},
    {"blue", {0, 0, 255}},
    {"yellow", {255, 255, 0}},
    {"gray", {128, 128, 128}},
    {"grey", {128, 128, 128}},
    {"silver", {192, 192, 192}},
    {"maroon", {128, 0, 0}},
    {"navy", {0, 0, 128}},
    {"purple", {128, 0, 128}},
    {"teal", {0, 128, 128}},
    {"olive", {128, 128, 0}},
    {"lime", {0, 255, 0}},
    {"aqua", {0, 255, 255}},
    {"cyan", {0, 255, 255}},
    {"fuchsia", {255, 0, 255}},
    {"magenta", {255, 0, 255}},
    {"orange", {255, 165, 0}},
    {"snow", {255, 250, 250}},
    {"ivory", {255, 255, 240}},
    {"whitesmoke", {245, 245, 245}},
    {"ghostwhite", {248, 248, 255}},
    {"floralwhite", {255, 250, 240}},
    {"azure", {240, 255, 255}},
    {"mintcream", {245, 255, 250}},
    {"seashell", {255, 245, 238}},
    {"aliceblue", {240, 248, 255}},
    {"honeydew", {240, 255, 240}},
}};

// "12.5px" -> 12.5 and unit "px"; false if no leading number.
bool split_number(std::string_view v, double& number, std::string_view& unit) {
  std::size_t i = 0;
  if (i < v.size() && (v[i] == '+' || v[i] == '-')) ++i;
  std::size_t digits = 0;
  while (i < v.size() && ((v[i] >= '0' && v[i] <= '9') || v[i] == '.')) {
    ++i;
    ++digits;
  }
  if (digits == 0) return false;
  std::string num(v.substr(0, i));
  char* end = nullptr;
  number = std::strtod(num.c_str(), &end);
  if (end == num.c_str()) return false;
  unit = trim_css(v.substr(i));
  return true;
}

// A CSS length in pixels (font-relative units against 16px); nullopt for
// keywords and anything unparsable.
std::optional<double> length_px(std::string_view v) {
  double n = 0;
  std::string_view unit;
  if (!split_number(v, n, unit)) return std::nullopt;
  if (n == 0) return 0.0;
  if (unit.empty() || equals_ci(unit, "px")) return n;
  if (equals_ci(unit, "pt")) return n * 4.0 / 3.0;
  if (equals_ci(unit, "em") || equals_ci(unit, "rem")) return n * 16.0;
  if (unit == "%") return n * 16.0 / 100.0;
  if (equals_ci(unit, "pc")) return n * 16.0;
  if (equals_ci(unit, "mm")) return n * 96.0 / 25.4;
  if (equals_ci(unit, "cm")) return n * 96.0 / 2.54;
  if (equals_ci(unit, "in")) return n * 96.0;
  return std::nullopt;
}

// The first color token in a `background` shorthand.
std::optional<Rgb> color_in_shorthand(std::string_view v) {
  std::size_t i = 0;
  while (i < v.size()) {
    while (i < v.size() && is_css_space(v[i])) ++i;
    std::size_t s = i;
    int depth = 0;
    while (i < v.size() && (depth > 0 || !is_css_space(v[i]))) {
      if (v[i] == '(') ++depth;
      if (v[i] == ')') --depth;
      ++i;
    }
    if (i > s) {
      if (auto c = parse_color(v.substr(s, i - s))) return c;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Rgb> parse_color(std::string_view value) {
  std::string_view v = trim_css(value);
  if (v.empty()) return std::nullopt;
  if (v.front() == '#') return parse_hex(v.substr(1));
  if (starts_with_ci(v, "rgb")) {
    std::size_t open = v.find('(');
    std::size_t close = v.find(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
      return std::nullopt;
    }
    std::string_view args = v.substr(open + 1, close - open - 1);
    double c[4] = {0, 0, 0, 1};
    int n = 0;
    std::size_t i = 0;
    while (i < args.size() && n < 4) {
      while (i < args.size() && (is_css_space(args[i]) || args[i] == ',' || args[i] == '/')) ++i;
      std::size_t s = i;
      while (i < args.size() && !is_css_space(args[i]) && args[i] != ',' && args[i] != '/') ++i;
      if (i == s) break;
      double x = 0;
      std::string_view unit;
      if (!split_number(args.substr(s, i - s), x, unit)) return std::nullopt;
      if (unit == "%") x = n < 3 ? x * 255.0 / 100.0 : x / 100.0;
      c[n++] = x;
    }
    if (n < 3) return std::nullopt;
    if (n == 4 && c[3] <= 0.0) return std::nullopt;  // fully transparent
    auto clamp = [](double x) {
      return static_cast<std::uint8_t>(x < 0 ? 0 : (x > 255 ? 255 : x + 0.5));
    };
    return Rgb{clamp(c[0]), clamp(c[1]), clamp(c[2])};
  }
  for (const NamedColor& nc : kNamedColors) {
    if (equals_ci(v, nc.name)) return nc.rgb;
  }
  // Legacy attribute values without '#' (bgcolor="ffffff").
  if (v.size() == 6 || v.size() == 3) return parse_hex(v);
  return std::nullopt;
}

bool same_color(const Rgb& a, const Rgb& b) {
  auto near = [](int x, int y) { return (x > y ? x - y : y - x) <= 10; };
  return near(a.r, b.r) && near(a.g, b.g) && near(a.b, b.b);
}

bool is_whitish(const Rgb& c) { return c.r >= 0xF0 && c.g >= 0xF0 && c.b >= 0xF0; }

bool is_read_style_declaration(std::string_view declaration) {
  // Every property parse_inline_style() below compares with.
  static constexpr std::array<std::string_view, 16> kRead = {"display",     "visibility",
                                                             "opacity",     "font-size",
                                                             "max-height",  "height",
                                                             "overflow",    "overflow-y",
                                                             "text-indent", "left",
                                                             "top",         "margin-left",
                                                             "color",       "background-color",
                                                             "background",  "background-image"};
  const std::size_t colon = declaration.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view prop = trim_css(declaration.substr(0, colon));
  for (std::string_view name : kRead) {
    if (equals_ci(prop, name)) return true;
  }
  return false;
}

InlineStyle parse_inline_style(std::string_view style) {
  InlineStyle st;
  bool zero_height = false;
  bool overflow_hidden = false;
  std::size_t i = 0;
  while (i < style.size()) {
    std::size_t semi = style.find(';', i);
    if (semi == std::string_view::npos) semi = style.size();
    std::string_view decl = style.substr(i, semi - i);
    i = semi + 1;
    std::size_t colon = decl.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view prop = trim_css(decl.substr(0, colon));
    std::string_view value = trim_css(decl.substr(colon + 1));
    std::size_t bang = value.find('!');
    if (bang != std::string_view::npos) value = trim_css(value.substr(0, bang));
    if (prop.empty() || value.empty()) continue;

    if (equals_ci(prop, "display")) {
      st.display_none = equals_ci(value, "none");
    } else if (equals_ci(prop, "visibility")) {
      st.visibility_hidden = equals_ci(value, "hidden") || equals_ci(value, "collapse");
      st.visibility_visible = equals_ci(value, "visible");
    } else if (equals_ci(prop, "opacity")) {
      double x = 1;
      std::string_view unit;
      if (split_number(value, x, unit)) {
        if (unit == "%") x /= 100.0;
        st.transparent = x <= 0.05;
      }
    } else if (equals_ci(prop, "font-size")) {
      st.font_size_px = length_px(value);
    } else if (equals_ci(prop, "max-height") || equals_ci(prop, "height")) {
      auto px = length_px(value);
      if (px && *px <= 0.0) zero_height = true;
    } else if (equals_ci(prop, "overflow") || equals_ci(prop, "overflow-y")) {
      overflow_hidden = equals_ci(value, "hidden") || equals_ci(value, "clip");
    } else if (equals_ci(prop, "text-indent") || equals_ci(prop, "left") ||
               equals_ci(prop, "top") || equals_ci(prop, "margin-left")) {
      auto px = length_px(value);
      if (px && *px <= -500.0) st.offscreen = true;
    } else if (equals_ci(prop, "color")) {
      st.color = parse_color(value);
    } else if (equals_ci(prop, "background-color")) {
      st.background = parse_color(value);
    } else if (equals_ci(prop, "background") || equals_ci(prop, "background-image")) {
      if (contains_ci(value, "url(") || contains_ci(value, "gradient")) {
        st.background_image = true;
      }
      if (equals_ci(prop, "background")) {
        if (auto c = color_in_shorthand(value)) st.background = c;
      }
    }
  }
  st.collapsed = zero_height && overflow_hidden;
  return st;
}

}  // namespace scamcheck::internal
