#include "url/host_heuristics.h"

#include <unicode/uscript.h>
#include <unicode/uspoof.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cstdint>

#include "detect/lookalike_fold.h"
#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

bool is_vowel(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

}  // namespace

HostLabels split_labels(std::string_view host) {
  HostLabels out;
  std::size_t start = 0;
  std::array<HostLabel, 128> tmp{};  // a 253-byte host has at most 127 labels
  std::size_t n = 0;
  while (start <= host.size()) {
    std::size_t dot = host.find('.', start);
    std::size_t end = dot == std::string_view::npos ? host.size() : dot;
    if (end > start && n < tmp.size()) tmp[n++] = {start, end - start};
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  std::size_t first = n > out.items.size() ? n - out.items.size() : 0;
  for (std::size_t i = first; i < n; ++i) out.items[out.count++] = tmp[i];
  return out;
}

double label_randomness(std::string_view label, const std::vector<bool>& rare_bigrams) {
  // Judge each hyphen-separated part; the most random one counts.
  double best = 0;
  std::size_t start = 0;
  while (start <= label.size()) {
    std::size_t dash = label.find('-', start);
    std::size_t end = dash == std::string_view::npos ? label.size() : dash;
    std::string_view part = label.substr(start, end - start);
    if (part.size() >= 5) {
      int letters = 0, digits = 0, vowels = 0, transitions = 0, run = 0, max_run = 0, rare = 0;
      bool hex = true;
      for (std::size_t i = 0; i < part.size(); ++i) {
        char c = part[i];
        if (is_digit(c)) {
          ++digits;
          run = 0;
        } else if (c >= 'a' && c <= 'z') {
          ++letters;
          // 'y' after a consonant sounds as a vowel ("python", "hydrant").
          if (is_vowel(c) || (c == 'y' && i > 0 && part[i - 1] >= 'a' && part[i - 1] <= 'z' &&
                              !is_vowel(part[i - 1]))) {
            ++vowels;
            run = 0;
          } else {
            max_run = std::max(max_run, ++run);
          }
          char n = i + 1 < part.size() ? part[i + 1] : '\0';
          if (n >= 'a' && n <= 'z' &&
              rare_bigrams[static_cast<std::size_t>((c - 'a') * 26 + (n - 'a'))]) {
            ++rare;
          }
        } else {
          run = 0;
        }
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) hex = false;
        if (i > 0 && is_digit(c) != is_digit(part[i - 1])) ++transitions;
      }
      double r = 0;
      // Clearly generated: several letter pairs English never has, or a
      // long hex string. Strong enough on its own to warn.
      if ((rare >= 3 && rare * 4 >= letters) ||
          (rare >= 2 && max_run >= 5 && rare * 5 >= letters) ||
          (hex && part.size() >= 16 && digits >= 4 && letters >= 3)) {
        r = 2.25;
      } else if (rare >= 2 || max_run >= 6 || (letters >= 3 && digits >= 2 && transitions >= 3) ||
                 (letters >= 5 && vowels * 5 < letters) ||
                 (hex && part.size() >= 12 && digits >= 3 && letters >= 2)) {
        r = 1.0;
      } else if ((rare == 1 && max_run >= 4) || max_run == 5 ||
                 (letters >= 4 && digits >= 1 && transitions >= 2 && part.size() <= 10)) {
        r = 0.6;
      }
      best = std::max(best, r);
    }
    if (dash == std::string_view::npos) break;
    start = dash + 1;
  }
  return best;
}

double server_name_strength(std::string_view label) {
  // An IPv4 address written into the name ("host-92-27-75-224").
  int groups = 0, run = 0;
  for (std::size_t i = 0; i <= label.size(); ++i) {
    char c = i < label.size() ? label[i] : '.';
    if (is_digit(c)) {
      ++run;
      continue;
    }
    if (run >= 1 && run <= 3) {
      ++groups;
    } else {
      groups = 0;
    }
    run = 0;
    if (groups >= 4) return 1.0;
    if (c != '-') groups = 0;
  }
  // Letters, then a long number, then at most three letters: "u0670691",
  // "serwer1957128", "web2421", "u4503724sw".
  std::size_t i = 0;
  while (i < label.size() && is_alpha(label[i])) ++i;
  std::size_t letters = i;
  if (letters == 0 || letters > 8) return 0;
  // SendGrid's branded click-tracking names ("url1234.shop.com",
  // "em5678.shop.com") are everywhere in legitimate newsletters.
  std::string_view head = label.substr(0, letters);
  if (head == "url" || head == "em") return 0;
  if (i < label.size() && label[i] == '-') ++i;
  std::size_t d0 = i;
  while (i < label.size() && is_digit(label[i])) ++i;
  std::size_t digits = i - d0;
  std::size_t tail = label.size() - i;
  if (digits < 4 || tail > 3) return 0;
  for (std::size_t k = i; k < label.size(); ++k) {
    if (!is_alpha(label[k])) return 0;
  }
  if (digits >= 6) return 1.0;
  // "conference2019", "dev2018": a year, not a serial number.
  bool year = digits == 4 && (label.compare(d0, 2, "19") == 0 || label.compare(d0, 2, "20") == 0);
  return year ? 0 : 0.8;
}

void label_skeleton(const USpoofChecker* spoof, std::string_view label, std::string& out) {
  bool ascii = std::all_of(label.begin(), label.end(),
                           [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  if (ascii || label.size() > 200) {
    ascii_skeleton(label, out);
    return;
  }
  char buf[512];
  UErrorCode status = U_ZERO_ERROR;
  int32_t n = uspoof_getSkeletonUTF8(spoof, 0, label.data(), static_cast<int32_t>(label.size()),
                                     buf, sizeof buf, &status);
  if (U_FAILURE(status) || n < 0 || n >= static_cast<int32_t>(sizeof buf)) {
    ascii_skeleton(label, out);
    return;
  }
  // ICU's prototypes keep case ("I" for "l"); fold ASCII afterwards.
  ascii_skeleton(std::string_view(buf, static_cast<std::size_t>(n)), out);
}

double idn_strength(const USpoofChecker* spoof, std::string_view unicode_host, bool written_xn) {
  double best = written_xn ? 0.6 : 0.0;
  std::size_t start = 0;
  std::string skel;
  while (start < unicode_host.size()) {
    std::size_t dot = unicode_host.find('.', start);
    std::size_t end = dot == std::string_view::npos ? unicode_host.size() : dot;
    std::string_view label = unicode_host.substr(start, end - start);
    bool non_ascii = std::any_of(label.begin(), label.end(),
                                 [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
    if (non_ascii) {
      bool latin = false, other = false, latin_lookalike_script = false;
      int32_t i = 0;
      const auto* s = reinterpret_cast<const uint8_t*>(label.data());
      auto len = static_cast<int32_t>(label.size());
      while (i < len) {
        UChar32 cp;
        U8_NEXT(s, i, len, cp);
        if (cp < 0) continue;
        UErrorCode st = U_ZERO_ERROR;
        UScriptCode sc = uscript_getScript(cp, &st);
        if (sc == USCRIPT_COMMON || sc == USCRIPT_INHERITED) continue;
        if (sc == USCRIPT_LATIN) {
          latin = true;
        } else {
          other = true;
          if (sc == USCRIPT_CYRILLIC || sc == USCRIPT_GREEK || sc == USCRIPT_ARMENIAN ||
              sc == USCRIPT_CHEROKEE) {
            latin_lookalike_script = true;
          }
        }
      }
      label_skeleton(spoof, label, skel);
      bool ascii_skel = std::all_of(skel.begin(), skel.end(),
                                    [](char c) { return static_cast<unsigned char>(c) < 0x80; });
      double s_label;
      if (latin && other) {
        s_label = 1.0;  // mixed scripts in one label: "pаypal" with Cyrillic а
      } else if (latin_lookalike_script && ascii_skel) {
        s_label = 1.0;  // whole-script look-alike: "раураl" all Cyrillic
      } else if (latin) {
        s_label = 0.4;  // accented Latin: "müller", common and legitimate
      } else {
        s_label = 0.6;  // another script, e.g. a Japanese or Cyrillic name
      }
      best = std::max(best, s_label);
    }
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return best;
}

}  // namespace scamcheck::internal
