// How the text Gumbo decoded from a text node maps back to the node's
// source (align_text, align_chars), and the visible text built from it
// (TextBuilder). Used by html_scan.cc alone.
#ifndef SCAMCHECK_EMAIL_HTML_TEXT_MAP_H_
#define SCAMCHECK_EMAIL_HTML_TEXT_MAP_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "email/email_checks.h"
#include "email/html_compact.h"
#include "util/ascii.h"
#include "util/utf8.h"

namespace scamcheck::internal::html_text {

inline constexpr std::size_t kNone = static_cast<std::size_t>(-1);

constexpr bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

// ASCII other than white space.
inline bool is_plain(char c) {
  static constexpr auto kPlain = [] {
    std::array<bool, 256> t{};
    for (int b = 0; b < 0x80; ++b) t[b] = !is_ascii_space(static_cast<char>(b));
    return t;
  }();
  return kPlain[static_cast<unsigned char>(c)];
}

// Bytes of the character at s[pos].
inline std::size_t char_len(std::string_view s, std::size_t pos) { return decode_utf8(s, pos).len; }

// Walks a text node's source (`orig`, at absolute offset `base`) next to the
// text Gumbo decoded from it (`dec`) and calls emit(char_bytes, src_start,
// src_end) once per decoded character, with the source range it came from:
// the character itself, or the whole character reference ("&amp;",
// "&#228;") it was decoded from. Gumbo does not report where each entity
// was, so its extent is found here: numeric references are unambiguous;
// for named ones (including legacy ones without ';', "&copy2024") the
// shortest decoded form that lets the following source text line up again
// is taken. Should the two ever disagree beyond repair (a Gumbo quirk), the
// rest of the text maps to the rest of the node: coarser, still verbatim.
// With `runs`, a CompactHtml::kRun on both sides stands for a run of
// source text: run(pos, start, end) is called instead of emit(), `pos` its
// position (base-relative like the rest) and [start, end) the range its
// characters come from (the placeholder itself, or the fallback's range).
template <typename Emit, typename Run>
void align_text(std::string_view orig, std::size_t base, std::string_view dec, bool runs,
                Emit&& emit, Run&& run) {
  std::size_t i = 0, j = 0;
  std::size_t runs_from = 0;  // in orig: after the last placeholder read
  auto char_at = [&](std::size_t pos) { return dec.substr(pos, char_len(dec, pos)); };
  // Bytes of the next `k` decoded characters from `pos`, or kNone.
  auto cp_bytes = [&](std::size_t pos, int k) {
    std::size_t p = pos;
    for (int n = 0; n < k; ++n) {
      if (p >= dec.size()) return kNone;
      p += char_at(p).size();
    }
    return p - pos;
  };
  // Does the source after `oe` line up with the decoded text after `de`?
  auto continues = [&](std::size_t oe, std::size_t de) {
    std::size_t m = 0;
    while (oe + m < orig.size() && m < 24) {
      char c = orig[oe + m];
      if (c == '&' || c == '\r' || c == '\0') break;
      ++m;
    }
    if (m == 0) return oe < orig.size() || de == dec.size();
    return de + m <= dec.size() && orig.compare(oe, m, dec, de, m) == 0;
  };
  auto fallback = [&]() {
    std::size_t s = base + (i < orig.size() ? i : 0);
    std::size_t e = base + orig.size();
    while (j < dec.size()) {
      std::string_view ch = char_at(j);
      if (runs && ch == CompactHtml::kRun) {
        // The placeholders of both sides come in the same order.
        const std::size_t at = orig.find(CompactHtml::kRun, runs_from);
        if (at != std::string_view::npos) {
          run(base + at, s, e);
          runs_from = at + ch.size();
          j += ch.size();
          continue;
        }
      }
      emit(ch, s, e);
      j += ch.size();
    }
  };

  while (j < dec.size()) {
    if (i >= orig.size()) return fallback();
    char c = orig[i];
    constexpr std::size_t kRunBytes = CompactHtml::kRun.size();
    if (runs && c == CompactHtml::kRun[0] && orig.substr(i, kRunBytes) == CompactHtml::kRun &&
        dec.substr(j, kRunBytes) == CompactHtml::kRun) {
      run(base + i, base + i, base + i + kRunBytes);
      i += kRunBytes;
      j += kRunBytes;
      runs_from = i;
      continue;
    }
    // Most text: the same ASCII character on both sides.
    if (c == dec[j] && static_cast<unsigned char>(c) < 0x80 && c != '&' && c != '\r') {
      emit(dec.substr(j, 1), base + i, base + i + 1);
      ++i;
      ++j;
      continue;
    }
    if (c == '&') {
      std::size_t k = i + 1;
      if (k < orig.size() && orig[k] == '#') {
        std::size_t d = k + 1;
        bool hex = d < orig.size() && (orig[d] == 'x' || orig[d] == 'X');
        if (hex) ++d;
        std::size_t digits_start = d;
        while (d < orig.size() &&
               (hex ? hex_value(orig[d]) >= 0 : (orig[d] >= '0' && orig[d] <= '9'))) {
          ++d;
        }
        if (d > digits_start) {
          if (d < orig.size() && orig[d] == ';') ++d;
          std::string_view ch = char_at(j);
          emit(ch, base + i, base + d);
          i = d;
          j += ch.size();
          continue;
        }
      } else {
        std::size_t run = k;
        while (run < orig.size() && is_alnum(orig[run])) ++run;
        if (run > k && dec[j] != '&') {
          // A named reference. Candidates: the whole name with its ';',
          // then ever shorter prefixes (legacy references without ';',
          // "&copy2024").
          bool semi = run < orig.size() && orig[run] == ';';
          bool done = false;
          // One decoded character is far more common than two, so every
          // length is tried with one first.
          for (int cps = 1; cps <= 2 && !done; ++cps) {
            for (std::size_t end = semi ? run + 1 : run; end > k + 1 && !done; --end) {
              if (end == run && semi) continue;  // "&name" when "&name;" was tried
              std::size_t nb = cp_bytes(j, cps);
              if (nb == kNone || !continues(end, j + nb)) continue;
              emit(dec.substr(j, nb), base + i, base + end);
              i = end;
              j += nb;
              done = true;
            }
          }
          if (done) continue;
          return fallback();
        }
        if (run > k && dec[j] == '&' && run - k >= 3 && equals_ci(orig.substr(k, 3), "amp") &&
            (orig.substr(k, 3) == "amp" || orig.substr(k, 3) == "AMP")) {
          std::size_t end = k + 3;
          if (end < orig.size() && orig[end] == ';') ++end;
          emit(dec.substr(j, 1), base + i, base + end);
          i = end;
          j += 1;
          continue;
        }
      }
      // A literal '&'.
    }
    if (c == '\r') {
      if (dec[j] == '\n') {
        std::size_t end = i + 1;
        if (end < orig.size() && orig[end] == '\n') ++end;
        emit(dec.substr(j, 1), base + i, base + end);
        i = end;
        j += 1;
      } else {
        ++i;
      }
      continue;
    }
    std::string_view ch = char_at(j);
    std::size_t n = ch.size();
    if (i + n <= orig.size() && orig.compare(i, n, ch) == 0) {
      emit(ch, base + i, base + i + n);
      i += n;
      j += n;
      continue;
    }
    if (ch == "\xEF\xBF\xBD") {  // U+FFFD for a NUL or an invalid byte
      const std::size_t len = char_len(orig, i);
      emit(ch, base + i, base + i + len);
      i += len;
      j += n;
      continue;
    }
    if (is_ascii_space(c) || c == '\0') {  // dropped by the parser (<pre>'s first newline)
      ++i;
      continue;
    }
    if (c == '<') {
      // Gumbo merges text after </body> or </html> into the text before
      // them, with those tags inside the node's source.
      std::size_t gt = orig.find('>', i);
      if (gt != std::string_view::npos) {
        i = gt + 1;
        continue;
      }
    }
    return fallback();
  }
}

// A two-code-point reference arrives as one emit() with both characters;
// this splits any multi-character chunk into per-character calls.
template <typename Emit, typename Run>
void align_chars(std::string_view orig, std::size_t base, std::string_view dec, bool runs,
                 Emit&& emit, Run&& run) {
  align_text(
      orig, base, dec, runs,
      [&](std::string_view chunk, std::size_t s, std::size_t e) {
        if (chunk.size() == 1) return emit(chunk, s, e);
        std::size_t p = 0;
        while (p < chunk.size()) {
          const std::size_t n = char_len(chunk, p);
          emit(chunk.substr(p, n), s, e);
          p += n;
        }
      },
      run);
}

// Builds VisibleText: collapses white space like a browser, and puts a
// separator (' ' for table cells, '\n' for blocks) between blocks so that
// phrases never glue across them. A separator maps to the source between
// the characters it separates (the tags and white space there).
class TextBuilder {
 public:
  explicit TextBuilder(VisibleText& v) : v_(v) {}

  void space() {
    if (pending_ < 1) pending_ = 1;
  }
  void block() { pending_ = 2; }

  void put(std::string_view ch, std::size_t s, std::size_t e) {
    if (ch.size() == 1 && is_ascii_space(ch[0])) {
      space();
      return;
    }
    separate(s);
    push(ch, s, e);
    prev_start_ = s;
    prev_end_ = e;
  }

  // put() of each character of `run`: source text at `s` that starts and
  // ends with a character other than white space (a run of plain text,
  // CompactHtml). Written in place: a character maps to its bytes, a run
  // of white space to one ' ' from the character before it to the one
  // after it.
  void put_run(std::string_view run, std::size_t s) {
    if (run.empty()) return;
    separate(s);
    const std::size_t at = v_.text.size();
    v_.text.resize(at + run.size());
    v_.source_start.resize(at + run.size());
    v_.source_end.resize(at + run.size());
    char* text = v_.text.data() + at;
    std::uint32_t* starts = v_.source_start.data() + at;
    std::uint32_t* ends = v_.source_end.data() + at;
    std::size_t o = 0;
    std::size_t last = 0;  // where the last character starts
    for (std::size_t k = 0; k < run.size();) {
      if (is_plain(run[k])) {
        // Words of ASCII and single spaces between them: each byte maps to
        // itself (a lone ' ' is the separator, from the character before
        // it to the one after it).
        std::size_t m = k + 1;
        while (m < run.size()) {
          if (is_plain(run[m])) {
            ++m;
          } else if (run[m] == ' ' && m + 1 < run.size() && is_plain(run[m + 1])) {
            m += 2;
          } else {
            break;
          }
        }
        std::memcpy(text + o, run.data() + k, m - k);
        const auto from = static_cast<std::uint32_t>(s + k);
        for (std::size_t t = 0; t < m - k; ++t) {
          starts[o + t] = from + static_cast<std::uint32_t>(t);
          ends[o + t] = from + static_cast<std::uint32_t>(t) + 1;
        }
        o += m - k;
        last = m - 1;
        k = m;
        continue;
      }
      if (static_cast<unsigned char>(run[k]) >= 0x80) {  // every byte maps to the character
        const std::size_t n = char_len(run, k);
        last = k;
        for (std::size_t b = 0; b < n; ++b) {
          text[o] = run[k + b];
          starts[o] = static_cast<std::uint32_t>(s + k);
          ends[o] = static_cast<std::uint32_t>(s + k + n);
          ++o;
        }
        k += n;
        continue;
      }
      std::size_t m = k + 1;  // white space
      while (m < run.size() && is_ascii_space(run[m])) ++m;
      text[o] = ' ';
      starts[o] = static_cast<std::uint32_t>(s + k);
      ends[o] = static_cast<std::uint32_t>(s + m);
      ++o;
      k = m;
    }
    v_.text.resize(at + o);
    v_.source_start.resize(at + o);
    v_.source_end.resize(at + o);
    prev_start_ = s + last;
    prev_end_ = s + run.size();
  }

 private:
  // The pending separator before a character from source position `s`.
  void separate(std::size_t s) {
    if (pending_ > 0 && !v_.text.empty()) {
      std::size_t gs = prev_end_, ge = s;
      if (ge <= gs) {  // text moved by the parser (foster parenting): no gap
        gs = prev_start_;
        ge = prev_end_;
      }
      push(pending_ == 2 ? "\n" : " ", gs, ge);
    }
    pending_ = 0;
  }

  void push(std::string_view bytes, std::size_t s, std::size_t e) {
    // Most characters are one byte: no append() call for them.
    if (bytes.size() == 1) {
      v_.text.push_back(bytes[0]);
      v_.source_start.push_back(static_cast<std::uint32_t>(s));
      v_.source_end.push_back(static_cast<std::uint32_t>(e));
      return;
    }
    v_.text.append(bytes);
    for (std::size_t k = 0; k < bytes.size(); ++k) {
      v_.source_start.push_back(static_cast<std::uint32_t>(s));
      v_.source_end.push_back(static_cast<std::uint32_t>(e));
    }
  }

  VisibleText& v_;
  int pending_ = 0;  // 0 none, 1 space, 2 line break
  std::size_t prev_start_ = 0, prev_end_ = 0;
};

}  // namespace scamcheck::internal::html_text

#endif  // SCAMCHECK_EMAIL_HTML_TEXT_MAP_H_
