#include "rules/word_runs.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace scamcheck::internal {
namespace {

constexpr int kMany = 1 << 20;  // no bound

int add(int a, int b) { return std::min(a + b, kMany); }
int times(int runs, long count) {
  return runs == 0 ? 0 : static_cast<int>(std::min<long>(static_cast<long>(runs) * count, kMany));
}

// What a piece of a pattern can match: the most runs (an upper bound), and
// whether all it matches is run bytes ("pure": such pieces side by side
// make one run, "this" or "\d+" counting words).
struct Piece {
  int runs = 0;
  bool pure = true;
};

constexpr Piece kEmpty{0, true};  // \b, ^, an empty group
// (Named for words; with Runs::kLetters, "run byte" is a letter.)
constexpr Piece kWord{1, true};      // a run byte: "a", \d, \w
constexpr Piece kNonWord{0, false};  // a byte between runs: " ", "é", \s, \W
constexpr Piece kEither{1, false};   // either: ".", \S, \pL

bool in_run(std::uint32_t cp, Runs runs) {
  return cp < 0x80 && run_byte(static_cast<unsigned char>(cp), runs);
}

// Reads RE2 syntax (re2/re2.h), conservatively: anything it does not know
// fails the whole reading.
class Reader {
 public:
  Reader(std::string_view p, Runs runs) : p_(p), runs_(runs) {}

  std::optional<int> read() {
    const Piece piece = alternation();
    if (failed_ || at_ != p_.size() || piece.runs >= kMany) return std::nullopt;
    return piece.runs;
  }

 private:
  bool more() const { return at_ < p_.size(); }
  char peek() const { return p_[at_]; }
  Piece fail() {
    failed_ = true;
    at_ = p_.size();
    return kEither;
  }

  Piece alternation() {
    Piece out = concatenation();
    while (more() && peek() == '|') {
      ++at_;
      const Piece next = concatenation();
      out.runs = std::max(out.runs, next.runs);
      out.pure = out.pure && next.pure;
    }
    return out;
  }

  // Pure pieces side by side make at most one run between them.
  Piece concatenation() {
    Piece out;
    int block = 0;  // runs of the pure pieces since the last other one (0 or 1)
    while (more() && peek() != '|' && peek() != ')') {
      const Piece p = repetition();
      if (p.pure) {
        block = std::max(block, p.runs);
      } else {
        out.runs = add(out.runs, add(block, p.runs));
        block = 0;
        out.pure = false;
      }
    }
    out.runs = add(out.runs, block);
    return out;
  }

  Piece repetition() {
    Piece p = atom();
    while (more()) {
      const char c = peek();
      long most = 1;
      if (c == '*' || c == '+') {
        ++at_;
        most = kMany;
      } else if (c == '?') {
        ++at_;
      } else if (c == '{') {
        const std::optional<long> bound = counted_repeat();
        if (!bound) break;  // a literal '{', read as the next atom
        most = *bound;
      } else {
        break;
      }
      if (more() && peek() == '?') ++at_;  // non-greedy: the same texts
      if (p.pure) {
        p.runs = std::min(p.runs, 1) * (most == 0 ? 0 : 1);
      } else {
        p.runs = most >= kMany ? (p.runs == 0 ? 0 : kMany) : times(p.runs, most);
      }
    }
    return p;
  }

  // "{n}", "{n,}" or "{n,m}" at at_: the most repeats (kMany: none), and
  // at_ past it; else nullopt and at_ unchanged.
  std::optional<long> counted_repeat() {
    std::size_t i = at_ + 1;
    auto number = [&](long& value) {
      const std::size_t from = i;
      value = 0;
      while (i < p_.size() && p_[i] >= '0' && p_[i] <= '9' && i - from < 6) {
        value = value * 10 + (p_[i++] - '0');
      }
      return i > from;
    };
    long least = 0, most = 0;
    if (!number(least)) return std::nullopt;
    most = least;
    if (i < p_.size() && p_[i] == ',') {
      ++i;
      if (!number(most)) most = kMany;
    }
    if (i >= p_.size() || p_[i] != '}') return std::nullopt;
    at_ = i + 1;
    return most;
  }

  Piece atom() {
    const char c = p_[at_++];
    switch (c) {
      case '(':
        return group();
      case '[':
        return char_class();
      case '\\':
        return escape();
      case '.':
        return kEither;
      case '^':
      case '$':
        return kEmpty;
      case '*':
      case '+':
      case '?':
        return fail();  // a repeat of nothing
      default:
        return literal(c);
    }
  }

  Piece literal(char c) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80) return run_byte(byte, runs_) ? kWord : kNonWord;
    while (more() && (static_cast<unsigned char>(peek()) & 0xC0) == 0x80)
      ++at_;  // the rest of its UTF-8
    return kNonWord;
  }

  Piece group() {
    if (more() && peek() == '?') {
      ++at_;
      if (more() && (peek() == 'P' || peek() == '<')) {  // (?P<name>...) or (?<name>...)
        const std::size_t end = p_.find('>', at_);
        if (end == std::string_view::npos) return fail();
        at_ = end + 1;
      } else {
        // Flags: (?flags) applies to the rest, (?flags:...) to a group.
        // Case-insensitive matching is not read (see max_word_runs).
        while (more() && peek() != ':' && peek() != ')') {
          const char flag = p_[at_++];
          if (flag != 'm' && flag != 's' && flag != 'U' && flag != '-') return fail();
        }
        if (!more()) return fail();
        if (p_[at_++] == ')') return kEmpty;
      }
    }
    const Piece inner = alternation();
    if (!more() || p_[at_++] != ')') return fail();
    return inner;
  }

  // A hex escape's code point after "\x": "hh" or "{h...}".
  std::optional<std::uint32_t> hex() {
    std::size_t end = at_ + 2;
    std::size_t from = at_;
    if (more() && peek() == '{') {
      end = p_.find('}', at_);
      if (end == std::string_view::npos) return std::nullopt;
      from = at_ + 1;
    }
    if (end > p_.size() || end == from) return std::nullopt;
    std::uint32_t cp = 0;
    for (std::size_t i = from; i < end; ++i) {
      const char h = p_[i];
      const int digit = h >= '0' && h <= '9'   ? h - '0'
                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                               : -1;
      if (digit < 0 || cp > 0x10FFFF) return std::nullopt;
      cp = cp * 16 + static_cast<std::uint32_t>(digit);
    }
    at_ = p_[at_] == '{' ? end + 1 : end;
    return cp;
  }

  // \pL, \p{Greek}, \PL: a property is read as both kinds.
  bool skip_property() {
    if (!more()) return false;
    if (peek() != '{') {
      ++at_;
      return true;
    }
    const std::size_t end = p_.find('}', at_);
    if (end == std::string_view::npos) return false;
    at_ = end + 1;
    return true;
  }

  Piece escape() {
    if (!more()) return fail();
    const char e = p_[at_++];
    switch (e) {
      case 'd':
        return runs_ == Runs::kWords ? kWord : kNonWord;
      case 'w':
        return runs_ == Runs::kWords ? kWord : kEither;
      case 's':
      case 'W':
      case 'n':
      case 't':
      case 'r':
      case 'f':
      case 'v':
      case 'a':
        return kNonWord;
      case 'D':
      case 'S':
      case 'C':
        return kEither;
      case 'b':
      case 'B':
      case 'A':
      case 'z':
        return kEmpty;
      case 'p':
      case 'P':
        return skip_property() ? kEither : fail();
      case 'x': {
        const std::optional<std::uint32_t> cp = hex();
        if (!cp) return fail();
        return in_run(*cp, runs_) ? kWord : kNonWord;
      }
      case 'Q': {  // literal up to \E
        std::size_t end = p_.find("\\E", at_);
        if (end == std::string_view::npos) end = p_.size();
        Piece out;
        bool in_run = false;
        for (std::size_t i = at_; i < end; ++i) {
          const bool word = run_byte(static_cast<unsigned char>(p_[i]), runs_);
          if (word && !in_run) out.runs = add(out.runs, 1);
          out.pure = out.pure && word;
          in_run = word;
        }
        at_ = std::min(end + 2, p_.size());
        return out;
      }
      default: {
        const auto byte = static_cast<unsigned char>(e);
        if (byte < 0x80 && !is_word_byte(byte)) return kNonWord;  // "\.", "\-", "\\"
        return fail();
      }
    }
  }

  // One code point of a class (UTF-8 decoded), or nullopt at a bad byte.
  std::optional<std::uint32_t> class_char() {
    const auto lead = static_cast<unsigned char>(p_[at_++]);
    if (lead < 0x80) return lead;
    int extra = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : -1;
    if (extra < 0) return std::nullopt;
    std::uint32_t cp = lead & (0x3F >> extra);
    for (; extra > 0; --extra) {
      if (!more()) return std::nullopt;
      cp = cp << 6 | (static_cast<unsigned char>(p_[at_++]) & 0x3F);
    }
    return cp;
  }

  Piece char_class() {
    bool word = false, non_word = false;
    const bool negated = more() && peek() == '^';
    if (negated) ++at_;
    bool first = true;
    while (more() && (peek() != ']' || first)) {
      first = false;
      if (p_.compare(at_, 2, "[:") == 0) {  // [:alpha:]: read as both kinds
        const std::size_t end = p_.find(":]", at_ + 2);
        if (end == std::string_view::npos) return fail();
        at_ = end + 2;
        word = non_word = true;
        continue;
      }
      std::uint32_t low = 0;
      if (peek() == '\\') {
        ++at_;
        if (!more()) return fail();
        const char e = p_[at_++];
        if (e == 'd' || e == 'w') {  // digits: word bytes, not letters
          (e == 'w' || runs_ == Runs::kWords ? word : non_word) = true;
          non_word = non_word || (e == 'w' && runs_ == Runs::kLetters);
          continue;
        }
        if (e == 's' || e == 'W') {
          non_word = true;
          continue;
        }
        if (e == 'D' || e == 'S' || ((e == 'p' || e == 'P') && skip_property())) {
          word = non_word = true;
          continue;
        }
        if (e == 'x') {
          const std::optional<std::uint32_t> cp = hex();
          if (!cp) return fail();
          low = *cp;
        } else if (e == 'n' || e == 't' || e == 'r' || e == 'f' || e == 'v' || e == 'a') {
          low = ' ';  // some non-word byte
        } else if (static_cast<unsigned char>(e) < 0x80 &&
                   !is_word_byte(static_cast<unsigned char>(e))) {
          low = static_cast<unsigned char>(e);
        } else {
          return fail();
        }
      } else {
        const std::optional<std::uint32_t> cp = class_char();
        if (!cp) return fail();
        low = *cp;
      }
      std::uint32_t high = low;
      if (at_ + 1 < p_.size() && peek() == '-' && p_[at_ + 1] != ']') {
        ++at_;
        if (peek() == '\\') return fail();  // a range to an escape: not read
        const std::optional<std::uint32_t> cp = class_char();
        if (!cp || *cp < low) return fail();
        high = *cp;
      }
      for (std::uint32_t cp = low; cp <= std::min<std::uint32_t>(high, 0x7F); ++cp) {
        (in_run(cp, runs_) ? word : non_word) = true;
      }
      if (high >= 0x80) non_word = true;
    }
    if (!more()) return fail();
    ++at_;  // ']'
    if (negated) word = non_word = true;
    return Piece{word ? 1 : 0, !non_word};
  }

  std::string_view p_;
  Runs runs_;
  std::size_t at_ = 0;
  bool failed_ = false;
};

}  // namespace

std::optional<int> max_runs(std::string_view pattern, Runs runs) {
  return Reader(pattern, runs).read();
}

}  // namespace scamcheck::internal
