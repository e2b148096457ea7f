#include "text_report.h"

#include <utf8proc.h>

#include <cstdio>
#include <initializer_list>

#include "common/report_json.h"

namespace scamcheck::cli {
namespace {

constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kDim = "\x1b[2m";
constexpr std::string_view kRed = "\x1b[31m";
constexpr std::string_view kGreen = "\x1b[32m";
constexpr std::string_view kYellow = "\x1b[33m";
constexpr std::string_view kCyan = "\x1b[36m";

class Painter {
 public:
  explicit Painter(bool color) : color_(color) {}
  // Appends `text` to *out wrapped in `style` (when colouring).
  void paint(std::string* out, std::string_view style, std::string_view text) const {
    if (color_) out->append(style);
    out->append(text);
    if (color_) out->append(kReset);
  }

 private:
  bool color_;
};

std::string_view verdict_color(Verdict verdict) {
  switch (verdict) {
    case Verdict::kSafe:
      return kGreen;
    case Verdict::kSuspicious:
      return kYellow;
    case Verdict::kDanger:
      return kRed;
  }
  return kBold;
}

std::string_view severity_color(Severity severity) {
  switch (severity) {
    case Severity::kHigh:
      return kRed;
    case Severity::kMedium:
      return kYellow;
    case Severity::kLow:
      return kCyan;
  }
  return kBold;
}

// Decodes the code point at text[i] of valid UTF-8; returns its length
// (1 should the text not be valid, so that the caller still advances).
std::size_t decode_utf8(std::string_view text, std::size_t i, char32_t* cp) {
  utf8proc_int32_t value = 0;
  const utf8proc_ssize_t len =
      utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + i),
                       static_cast<utf8proc_ssize_t>(text.size() - i), &value);
  *cp = static_cast<char32_t>(value);
  return len > 0 ? static_cast<std::size_t>(len) : 1;
}

bool is_format_control(char32_t cp) {
  return (cp >= 0x200B && cp <= 0x200F) ||  // zero-width space/joiners, LRM, RLM
         (cp >= 0x202A && cp <= 0x202E) ||  // bidi embeddings and overrides
         (cp >= 0x2066 && cp <= 0x2069) ||  // bidi isolates
         cp == 0x061C || cp == 0xFEFF;      // Arabic letter mark, BOM
}

// Appends every piece to *out. (Chains of std::string operator+ trip a GCC 12
// -Wrestrict false positive, which -Werror would turn into a build failure.)
void append(std::string* out, std::initializer_list<std::string_view> pieces) {
  for (std::string_view piece : pieces) out->append(piece);
}

std::string concat(std::initializer_list<std::string_view> pieces) {
  std::string out;
  append(&out, pieces);
  return out;
}

std::string upper_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

}  // namespace

std::string terminal_safe(std::string_view raw) {
  const std::string repaired =
      adapters::is_valid_utf8(raw) ? std::string(raw) : adapters::repair_utf8(raw);
  std::string out;
  out.reserve(repaired.size());
  char buf[16];
  for (std::size_t i = 0; i < repaired.size();) {
    char32_t cp;
    const std::size_t len = decode_utf8(repaired, i, &cp);
    if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp < 0x20 || cp == 0x7F) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
      out += buf;
    } else if ((cp >= 0x80 && cp <= 0x9F) || is_format_control(cp)) {
      std::snprintf(buf, sizeof buf, "<U+%04X>", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(repaired, i, len);
    }
    i += len;
  }
  return out;
}

std::string render_text_report(const Report& report, bool color) {
  const Painter p(color);
  std::string out;
  out.reserve(1024);

  // Verdict line: "DANGER  Dangerous"
  std::string style(kBold);
  style += verdict_color(report.verdict);
  p.paint(&out, style, upper_ascii(to_string(report.verdict)));
  if (!report.risk_text.empty()) {
    out += "  ";
    p.paint(&out, kBold, terminal_safe(report.risk_text));
  }
  append(&out, {"\nrisk_score ", std::to_string(report.risk_score), "/100   confidence ",
                std::to_string(report.confidence), "/100\n"});
  if (!report.summary_plain.empty()) {
    append(&out, {"\n", terminal_safe(report.summary_plain), "\n"});
  }

  if (!report.signals.empty()) {
    out += "\n";
    p.paint(&out, kBold, "signals");
    out += "\n";
    for (const Signal& s : report.signals) {
      out += "  ";
      p.paint(&out, severity_color(s.severity), concat({"[", to_string(s.severity), "]"}));
      out += " ";
      p.paint(&out, kBold, terminal_safe(s.key));
      append(&out, {"\n    \"", terminal_safe(s.evidence), "\"  "});
      p.paint(&out, kDim,
              concat({terminal_safe(s.location), " ", std::to_string(s.span.start), "-",
                      std::to_string(s.span.end)}));
      out += "\n";
      if (!s.explanation.empty()) append(&out, {"    ", terminal_safe(s.explanation), "\n"});
    }
  }

  if (!report.urls.empty()) {
    out += "\n";
    p.paint(&out, kBold, "urls");
    out += "\n";
    for (const UrlInfo& u : report.urls) {
      append(&out, {"  ", terminal_safe(u.url), "  "});
      p.paint(&out, kDim, to_string(u.reputation));
      out += "\n";
    }
  }

  if (!report.actions.empty()) {
    out += "\n";
    p.paint(&out, kBold, "actions");
    out += "\n";
    for (const Action& a : report.actions) {
      append(&out, {"  ", terminal_safe(a.icon), " ", terminal_safe(a.text), "\n"});
    }
  }
  return out;
}

}  // namespace scamcheck::cli
